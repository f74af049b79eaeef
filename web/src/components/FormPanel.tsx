// A form shown on a page rather than in a dialog (the campaign page's tabs): the message for what
// no field shows, what the last save did, the form, and Save (no saving twice at once). Test ids:
// `{name}-form`, `{name}-form-error`, `{name}-form-notice`, `{name}-save`.
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';

import DialogMessages from './DialogMessages';

interface FormPanelProps {
  name: string;
  message?: string;
  notice?: string;
  saving: boolean;
  saveLabel: ReactNode;
  onSave: () => void;
  children?: ReactNode;
}

export default function FormPanel({ name, message, notice, saving, saveLabel, onSave, children }: FormPanelProps) {
  return (
    <Box data-testid={`${name}-form`} sx={{ maxWidth: 900 }}>
      <DialogMessages error={message} notice={notice} testid={`${name}-form`} />
      {children}
      <Stack direction="row" sx={{ mt: 2 }}>
        <Button variant="contained" onClick={onSave} disabled={saving} data-testid={`${name}-save`}>
          {saveLabel}
        </Button>
      </Stack>
    </Box>
  );
}
