// Add or edit one trunk. Field errors from the dialog's own checks or from the server show
// under their fields; anything else shows above the form.
import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

import PasswordField from '../../components/PasswordField';
import { addTrunk, updateTrunk } from '../../api/trunks';
import useFormDialog from '../../hooks/useFormDialog';
import { AUTH_TYPES, CODECS, DIRECTIONS, TRANSPORTS, emptyTrunk, trunkBody, trunkToForm, validateTrunk } from '../../utils/trunkForm';

export default function TrunkDialog({ open, trunk, onClose, onSaved }) {
  const editing = Boolean(trunk);
  const { values, set, message, saving, field, reset, submit } = useFormDialog('trunk', emptyTrunk());

  useEffect(() => {
    if (open) reset(trunk ? trunkToForm(trunk) : emptyTrunk());
  }, [open, trunk]);

  const save = async () => {
    const saved = await submit(
      (v) => validateTrunk(v, { hasSecret: Boolean(trunk?.has_secret) }),
      () => (editing ? updateTrunk(trunk.id, trunkBody(values, { editing })) : addTrunk(trunkBody(values))),
      'The trunk could not be saved.'
    );
    if (saved) onSaved(`Trunk ${saved.name} ${editing ? 'saved' : 'created'}.`);
  };

  const select = (name, label, options) => (
    <TextField select {...field(name, label)}>
      {options.map((o) => (
        <MenuItem key={o} value={o}>
          {o}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Dialog open={open} onClose={saving ? undefined : onClose} maxWidth="md" fullWidth data-testid="trunk-dialog">
      <DialogTitle>{editing ? `Edit trunk ${trunk.name}` : 'Add trunk'}</DialogTitle>
      <DialogContent dividers>
        {message && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="trunk-dialog-error">
            {message}
          </Alert>
        )}
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField {...field('name', 'Name')} autoFocus />
          </Grid>
          <Grid size={{ xs: 12, sm: 3 }}>{select('direction', 'Direction', DIRECTIONS)}</Grid>
          <Grid size={{ xs: 12, sm: 3 }}>
            <TextField {...field('failover_order', 'Failover order', { helperText: 'Lower is tried first' })} />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField {...field('host', 'Host', { helperText: 'Host name or IP address' })} />
          </Grid>
          <Grid size={{ xs: 6, sm: 3 }}>
            <TextField {...field('port', 'Port')} />
          </Grid>
          <Grid size={{ xs: 6, sm: 3 }}>{select('transport', 'Transport', TRANSPORTS)}</Grid>
          <Grid size={{ xs: 12, sm: 4 }}>{select('auth_type', 'Authentication', AUTH_TYPES)}</Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField {...field('username', 'Username')} disabled={values.auth_type !== 'digest'} />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <PasswordField
              {...field('secret', 'Secret', { helperText: editing && trunk.has_secret ? 'Leave blank to keep the stored secret' : ' ' })}
              disabled={values.auth_type !== 'digest'}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField {...field('dial_prefix', 'Dial prefix', { helperText: 'Added before the number' })} />
          </Grid>
          <Grid size={{ xs: 6, sm: 4 }}>
            <TextField {...field('strip_digits', 'Strip digits', { helperText: 'Removed from the front first' })} />
          </Grid>
          <Grid size={{ xs: 6, sm: 4 }}>
            <TextField {...field('max_channels', 'Max channels', { helperText: 'Blank: no limit' })} />
          </Grid>
          <Grid size={{ xs: 12, sm: 8 }}>
            <TextField
              select
              {...field('codecs', 'Codecs', { helperText: 'In order of preference' })}
              slotProps={{
                select: {
                  multiple: true,
                  renderValue: (selected) => selected.map((c) => <Chip key={c} size="small" label={c} sx={{ mr: 0.5 }} />)
                },
                htmlInput: { 'data-testid': 'trunk-codecs' }
              }}
            >
              {CODECS.map((c) => (
                <MenuItem key={c} value={c}>
                  {c}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <FormControlLabel
              control={<Checkbox checked={values.qualify} onChange={(e) => set('qualify', e.target.checked)} />}
              label="Qualify (send OPTIONS)"
            />
          </Grid>
        </Grid>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          Cancel
        </Button>
        <Button variant="contained" onClick={save} disabled={saving} data-testid="trunk-save">
          {editing ? 'Save' : 'Add trunk'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
