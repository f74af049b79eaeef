// A new API token for a user: asked first (the previous token stops working), then shown once
// with a copy button, since the server keeps only its hash.
import { useState } from 'react';
import type { ApiToken } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { testId } from '../../components/testId';

interface ApiTokenDialogProps {
  user: { id: number; name: string } | null;
  issue: (userId: number) => Promise<ApiToken>;
  onClose: () => void;
}

export default function ApiTokenDialog({ user, issue, onClose }: ApiTokenDialogProps) {
  const [token, setToken] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);

  // Another user (or none): start afresh (state adjusted while rendering).
  const [shownFor, setShownFor] = useState(user);
  if (user !== shownFor) {
    setShownFor(user);
    setToken('');
    setError('');
    setCopied(false);
  }

  const create = async () => {
    if (!user) return;
    setBusy(true);
    setError('');
    try {
      setToken((await issue(user.id))?.token ?? '');
    } catch (err) {
      setError(failureMessage(err, 'The token could not be issued.'));
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
              slotProps={{
                htmlInput: { readOnly: true, 'aria-label': 'API token', ...testId('token-value') }
              }}
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
