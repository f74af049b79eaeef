// The frame of an add/edit dialog: title, the message for what no field shows, the form, and
// Cancel / Save (no closing while saving).
import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog, { type DialogProps } from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';

interface FormDialogProps {
  open: boolean;
  /** Test ids: `{name}-dialog`, `{name}-dialog-error`, `{name}-save` */
  name: string;
  title: ReactNode;
  message?: string;
  saving: boolean;
  saveLabel: ReactNode;
  onClose: () => void;
  onSave: () => void;
  maxWidth?: DialogProps['maxWidth'];
  children?: ReactNode;
}

export default function FormDialog({
  open,
  name,
  title,
  message,
  saving,
  saveLabel,
  onClose,
  onSave,
  maxWidth = 'sm',
  children
}: FormDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={saving ? undefined : onClose}
      maxWidth={maxWidth}
      fullWidth
      data-testid={`${name}-dialog`}
    >
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers>
        {message && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid={`${name}-dialog-error`}>
            {message}
          </Alert>
        )}
        {children}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          Cancel
        </Button>
        <Button variant="contained" onClick={onSave} disabled={saving} data-testid={`${name}-save`}>
          {saveLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A select's option: a plain value, or a [value, label] pair. */
export type SelectOption = string | number | readonly [string | number, ReactNode];

/** A TextField select over `options`: plain values, or [value, label] pairs. */
export function SelectField({ options, ...props }: TextFieldProps & { options: readonly SelectOption[] }) {
  return (
    <TextField select {...props}>
      {options.map((option) => {
        const [value, label] = Array.isArray(option) ? option : [option, option];
        return (
          <MenuItem key={value} value={value}>
            {label}
          </MenuItem>
        );
      })}
    </TextField>
  );
}
