// Add or edit one rate of a tariff. A rate calls were rated at keeps its price: the server says so.
import { useEffect } from 'react';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';

import FormDialog from '../../components/FormDialog';
import { call } from '../../api/client';
import { ratesAdd, ratesUpdate, type RateOut, type RateUpdate, type TariffBrief } from '../../client';
import useFormDialog from '../../hooks/useFormDialog';
import { emptyRate, rateBody, rateToForm, validateRate } from '../../utils/rateForm';

interface RateDialogProps {
  open: boolean;
  rate: RateOut | null;
  tariff: TariffBrief;
  onClose: () => void;
  onSaved: (notice: string) => void;
}

export default function RateDialog({ open, rate, tariff, onClose, onSaved }: RateDialogProps) {
  const editing = rate !== null;
  const { values, message, saving, field, reset, submit } = useFormDialog('rate', emptyRate());

  useEffect(() => {
    if (open) reset(rate ? rateToForm(rate) : emptyRate());
  }, [open, rate, reset]);

  const save = async () => {
    const body = rateBody(values, tariff.id);
    const saved = await submit(
      validateRate,
      () =>
        editing
          ? // An edit sends the add's body; the generated RateUpdate has no null start ("now") yet.
            call(ratesUpdate({ path: { id: rate.id }, body: body as RateUpdate }))
          : call(ratesAdd({ body })),
      'The rate could not be saved.'
    );
    if (saved) onSaved(`Rate ${saved.prefix} ${editing ? 'saved' : 'added'}.`);
  };

  const money = `${tariff.currency} per minute`;
  return (
    <FormDialog
      open={open}
      name="rate"
      title={editing ? `Edit rate ${rate.prefix}` : `Add a rate to ${tariff.name}`}
      message={message}
      saving={saving}
      saveLabel={editing ? 'Save' : 'Add rate'}
      onClose={onClose}
      onSave={save}
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('prefix', 'Prefix', { helperText: 'Digits dialled, e.g. 4420 for London' })} autoFocus />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('country', 'Country', { helperText: "Empty: the prefix's own" })} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('rate_per_minute', 'Rate', { helperText: money })} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField
            {...field('connection_fee', 'Connect fee', { helperText: `${tariff.currency} per answered call` })}
          />
        </Grid>
        <Grid size={{ xs: 4 }}>
          <TextField {...field('initial_increment', 'First block (s)')} />
        </Grid>
        <Grid size={{ xs: 4 }}>
          <TextField {...field('billing_increment', 'Then every (s)')} />
        </Grid>
        <Grid size={{ xs: 4 }}>
          <TextField {...field('min_duration', 'Minimum (s)')} />
        </Grid>
        <Grid size={12}>
          <TextField
            {...field('effective_from', 'Effective from (UTC)', {
              helperText: 'e.g. 2026-01-01 00:00; empty: now. To change a price, add a rate with a later start.'
            })}
          />
        </Grid>
      </Grid>
    </FormDialog>
  );
}
