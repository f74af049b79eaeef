// Add or edit a traffic source: its name, the utm_source that means it, and its publisher payout.
import { useEffect } from 'react';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';

import FormDialog, { SelectField } from '../../components/FormDialog';
import { CustomerPicker } from '../../components/NamePicker';
import { call } from '../../api/client';
import { sourcesAdd, sourcesUpdate, type SourceOut } from '../../client';
import useFormDialog from '../../hooks/useFormDialog';
import { getMoneyConfig } from '../../store/money';
import { emptySource, PAYOUT_KINDS, sourceBody, sourceToForm, validateSource } from '../../utils/sourceForm';

interface SourceDialogProps {
  open: boolean;
  source: SourceOut | null;
  admin: boolean;
  onClose: () => void;
  onSaved: (notice: string) => void;
}

export default function SourceDialog({ open, source, admin, onClose, onSaved }: SourceDialogProps) {
  const editing = source !== null;
  const { values, set, errors, message, saving, field, reset, submit } = useFormDialog('source', emptySource());
  const currency = getMoneyConfig().currency;

  useEffect(() => {
    if (open) reset(source ? sourceToForm(source) : emptySource());
  }, [open, source, reset]);

  const save = async () => {
    const naming = admin && !editing; // an admin names the customer of a new source
    const saved = await submit(
      (v) => validateSource(v, { admin: naming, currency }),
      () =>
        editing
          ? call(sourcesUpdate({ path: { id: source.id }, body: sourceBody(values) }))
          : call(sourcesAdd({ body: sourceBody(values, { admin: naming }) })),
      'The source could not be saved.'
    );
    if (saved) onSaved(`Source ${saved.name} ${editing ? 'saved' : 'added'}.`);
  };

  return (
    <FormDialog
      open={open}
      name="source"
      title={editing ? `Edit source ${source.name}` : 'Add source'}
      message={message}
      saving={saving}
      saveLabel={editing ? 'Save' : 'Add source'}
      onClose={onClose}
      onSave={save}
    >
      <Grid container spacing={2}>
        {admin && !editing && (
          <Grid size={12}>
            <CustomerPicker
              value={values.user_id}
              onChange={(id) => set('user_id', id)}
              testid="source-user_id"
              error={errors.user_id}
            />
          </Grid>
        )}
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField
            {...field('name', 'Name', { helperText: 'A publisher, or a channel such as Google Ads' })}
            autoFocus
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField
            {...field('utm_source', 'utm_source', { helperText: "Visits carrying it are this source's (any case)" })}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <SelectField {...field('payout_kind', 'Publisher payout')} options={PAYOUT_KINDS} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          {values.payout_kind === 'fixed' && (
            <TextField {...field('payout_amount', 'Amount', { helperText: 'Per converted call' })} />
          )}
          {values.payout_kind === 'share' && (
            <TextField {...field('payout_share', 'Share (%)', { helperText: "Of the buyer's payout, 0 to 100" })} />
          )}
        </Grid>
      </Grid>
    </FormDialog>
  );
}
