import Alert from '@mui/material/Alert';

interface DialogMessagesProps {
  error?: string;
  notice?: string;
  testid: string;
}

/**
 * A dialog's messages above its content: what went wrong, or what the last action did. They stay
 * until the next action (unlike Notice's snackbar) as the dialog's list changes below them.
 * Test ids: `${testid}-error`, `${testid}-notice`.
 */
export default function DialogMessages({ error, notice, testid }: DialogMessagesProps) {
  return (
    <>
      {error && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid={`${testid}-error`}>
          {error}
        </Alert>
      )}
      {notice && (
        <Alert severity="success" sx={{ mb: 2 }} data-testid={`${testid}-notice`}>
          {notice}
        </Alert>
      )}
    </>
  );
}
