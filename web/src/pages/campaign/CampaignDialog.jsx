// Add or edit a campaign's routing settings (the admin names the customer a new one is for).
import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

import { addCampaign, updateCampaign } from '../../api/campaigns';
import useFormDialog from '../../hooks/useFormDialog';
import { DUPLICATE_ACTIONS, STRATEGIES, campaignBody, campaignToForm, emptyCampaign, validateCampaign } from '../../utils/campaignForm';

export default function CampaignDialog({ open, campaign, admin, onClose, onSaved }) {
  const editing = Boolean(campaign);
  const { values, set, message, saving, field, reset, submit } = useFormDialog('campaign', emptyCampaign());

  useEffect(() => {
    if (open) reset(campaign ? campaignToForm(campaign) : emptyCampaign());
  }, [open, campaign]);

  const save = async () => {
    const saved = await submit(
      (v) => validateCampaign(v, { needsOwner: admin && !editing }),
      () => (editing ? updateCampaign(campaign.id, campaignBody(values, { editing })) : addCampaign(campaignBody(values, { admin }))),
      'The campaign could not be saved.'
    );
    if (saved) onSaved(`Campaign ${saved.name} ${editing ? 'saved' : 'created'}.`);
  };

  const select = (name, label, options) => (
    <TextField select {...field(name, label)}>
      {options.map(([value, text]) => (
        <MenuItem key={value} value={value}>
          {text}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Dialog open={open} onClose={saving ? undefined : onClose} maxWidth="sm" fullWidth data-testid="campaign-dialog">
      <DialogTitle>{editing ? `Edit campaign ${campaign.name}` : 'Add campaign'}</DialogTitle>
      <DialogContent dividers>
        {message && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="campaign-dialog-error">
            {message}
          </Alert>
        )}
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: admin && !editing ? 8 : 12 }}>
            <TextField {...field('name', 'Name')} autoFocus />
          </Grid>
          {admin && !editing && (
            <Grid size={{ xs: 12, sm: 4 }}>
              <TextField {...field('user_id', 'Customer ID', { helperText: 'The customer it is for' })} />
            </Grid>
          )}
          <Grid size={{ xs: 12, sm: 6 }}>{select('strategy', 'Target order', STRATEGIES)}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField {...field('ring_timeout', 'Ring timeout (s)', { helperText: 'Each target rings this long' })} />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField {...field('buffer_seconds', 'Buffer (s)', { helperText: 'Talk time that makes a conversion' })} />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField {...field('duplicate_window_seconds', 'Duplicate window (s)', { helperText: 'A repeat caller within it is a duplicate' })} />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{select('duplicate_action', 'Duplicate calls', DUPLICATE_ACTIONS)}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormControlLabel
              control={<Checkbox checked={values.record} onChange={(e) => set('record', e.target.checked)} slotProps={{ input: { 'data-testid': 'campaign-record' } }} />}
              label="Record answered calls"
            />
          </Grid>
        </Grid>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          Cancel
        </Button>
        <Button variant="contained" onClick={save} disabled={saving} data-testid="campaign-save">
          {editing ? 'Save' : 'Add campaign'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
