// The frame of an add/edit dialog: title, the message for what no field shows, the form, and
// Cancel / Save (no closing while saving).
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

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
}) {
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

/** A TextField select over `options`: plain values, or [value, label] pairs. */
export function SelectField({ options, ...props }) {
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
