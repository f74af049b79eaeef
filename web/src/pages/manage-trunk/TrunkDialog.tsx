// Add or edit one trunk. Field errors from the dialog's own checks or from the server show
// under their fields; anything else shows above the form.
import { useEffect } from 'react';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';

import FormDialog, { SelectField } from '../../components/FormDialog';
import PasswordField from '../../components/PasswordField';
import VendorPicker from '../../components/VendorPicker';
import { call } from '../../api/client';
import { trunksAdd, trunksUpdate, type TrunkOut } from '../../client';
import useFormDialog from '../../hooks/useFormDialog';
import {
  AUTH_TYPES,
  CODECS,
  DIRECTIONS,
  TRANSPORTS,
  emptyTrunk,
  trunkBody,
  trunkToForm,
  validateTrunk
} from '../../utils/trunkForm';

interface TrunkDialogProps {
  open: boolean;
  trunk: TrunkOut | null;
  onClose: () => void;
  onSaved: (notice: string) => void;
}

export default function TrunkDialog({ open, trunk, onClose, onSaved }: TrunkDialogProps) {
  const editing = trunk !== null;
  const { values, set, errors, message, saving, field, reset, submit } = useFormDialog('trunk', emptyTrunk());

  useEffect(() => {
    if (open) reset(trunk ? trunkToForm(trunk) : emptyTrunk());
  }, [open, trunk, reset]);

  const save = async () => {
    const saved = await submit(
      (v) => validateTrunk(v, { hasSecret: Boolean(trunk?.has_secret) }),
      () =>
        editing
          ? call(trunksUpdate({ path: { id: trunk.id }, body: trunkBody(values, { editing }) }))
          : call(trunksAdd({ body: trunkBody(values) })),
      'The trunk could not be saved.'
    );
    if (saved) onSaved(`Trunk ${saved.name} ${editing ? 'saved' : 'created'}.`);
  };

  return (
    <FormDialog
      open={open}
      name="trunk"
      title={editing ? `Edit trunk ${trunk.name}` : 'Add trunk'}
      message={message}
      saving={saving}
      saveLabel={editing ? 'Save' : 'Add trunk'}
      onClose={onClose}
      onSave={save}
      maxWidth="md"
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('name', 'Name')} autoFocus />
        </Grid>
        <Grid size={{ xs: 12, sm: 3 }}>
          <SelectField {...field('direction', 'Direction')} options={DIRECTIONS} />
        </Grid>
        <Grid size={{ xs: 12, sm: 3 }}>
          <TextField {...field('failover_order', 'Failover order', { helperText: 'Lower is tried first' })} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('host', 'Host', { helperText: 'Host name or IP address' })} />
        </Grid>
        <Grid size={{ xs: 6, sm: 3 }}>
          <TextField {...field('port', 'Port')} />
        </Grid>
        <Grid size={{ xs: 6, sm: 3 }}>
          <SelectField {...field('transport', 'Transport')} options={TRANSPORTS} />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <SelectField {...field('auth_type', 'Authentication')} options={AUTH_TYPES} />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <TextField {...field('username', 'Username')} disabled={values.auth_type !== 'digest'} />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <PasswordField
            {...field('secret', 'Secret', {
              helperText: editing && trunk.has_secret ? 'Leave blank to keep the stored secret' : ' '
            })}
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
          <SelectField
            {...field('codecs', 'Codecs', { helperText: 'In order of preference' })}
            options={CODECS}
            slotProps={{
              select: {
                multiple: true,
                // A multiple select: its value is the codecs chosen.
                renderValue: (selected) =>
                  (selected as string[]).map((c) => <Chip key={c} size="small" label={c} sx={{ mr: 0.5 }} />)
              },
              htmlInput: { 'data-testid': 'trunk-codecs' }
            }}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <VendorPicker
            value={values.vendor_id}
            onChange={(id) => set('vendor_id', id)}
            testId="trunk-vendor"
            error={errors.vendor_id}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormControlLabel
            control={<Checkbox checked={values.qualify} onChange={(e) => set('qualify', e.target.checked)} />}
            label="Qualify (send OPTIONS)"
          />
        </Grid>
      </Grid>
    </FormDialog>
  );
}
