// A buyer's webhooks in a dialog (the buyer list, the buyer's own targets); the campaign page shows
// a campaign's on its Webhooks tab.
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';

import type { WebhookOwner } from '../utils/webhookForm';
import WebhooksPanel from './WebhooksPanel';

interface WebhooksDialogProps {
  owner: WebhookOwner;
  title: string;
  onClose: () => void;
}

/** Mounted while shown, so each opening reads afresh. */
export default function WebhooksDialog({ owner, title, onClose }: WebhooksDialogProps) {
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="webhooks-dialog">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers>
        <WebhooksPanel owner={owner} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
