import Alert from '@mui/material/Alert';
import Fade from '@mui/material/Fade';
import Snackbar from '@mui/material/Snackbar';

export const NOTICE_MS = 5000;

interface NoticeProps {
  text: string;
  onClose?: () => void;
  testid?: string;
}

/**
 * A success message as a snackbar that fades out after NOTICE_MS (or when closed): it says the
 * action worked without pushing the page down or waiting to be dismissed. `onClose()` clears it.
 */
export default function Notice({ text, onClose, testid }: NoticeProps) {
  return (
    <Snackbar
      open={Boolean(text)}
      autoHideDuration={NOTICE_MS}
      onClose={(_, reason) => reason !== 'clickaway' && onClose?.()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      slots={{ transition: Fade }}
    >
      <Alert severity="success" variant="filled" onClose={onClose} data-testid={testid} sx={{ minWidth: 280 }}>
        {text}
      </Alert>
    </Snackbar>
  );
}
