// A new API token for a user: asked first (the previous token stops working), then shown once
// with a copy button, since the server keeps only its hash.
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';

export default function ApiTokenDialog({ user, issue, onClose }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    setToken('');
    setError('');
    setCopied(false);
  }, [user]);

  const create = async () => {
    setBusy(true);
    setError('');
    try {
      setToken((await issue(user.id))?.token ?? '');
    } catch (err) {
      setError(err?.message || 'The token could not be issued.');
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    await navigator.clipboard?.writeText(token);
    setCopied(true);
  };

  return (
    <Dialog
      open={user !== null}
      onClose={busy ? undefined : onClose}
      maxWidth="sm"
      fullWidth
      data-testid="token-dialog"
    >
      <DialogTitle>API token{user ? ` for ${user.name}` : ''}</DialogTitle>
      <DialogContent dividers>
        {error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        )}
        {token ? (
          <>
            <Alert severity="success" sx={{ mb: 2 }}>
              Copy it now: it is shown only once. Requests send it as "Authorization: Bearer …".
            </Alert>
            <TextField
              value={token}
              fullWidth
              size="small"
              slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'token-value', 'aria-label': 'API token' } }}
            />
          </>
        ) : (
          <DialogContentText>
            Issue a new API token? The user's current API token stops working at once.
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {token ? 'Close' : 'Cancel'}
        </Button>
        {token ? (
          <Button variant="contained" onClick={copy} data-testid="token-copy">
            {copied ? 'Copied' : 'Copy'}
          </Button>
        ) : (
          <Button variant="contained" onClick={create} disabled={busy} data-testid="token-issue">
            Issue new token
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
