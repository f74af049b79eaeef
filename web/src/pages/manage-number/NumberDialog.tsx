// Add a number to the pool, or change a number's fees and vendor (admin).
import { useEffect } from 'react';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';

import FormDialog from '../../components/FormDialog';
import SourcePicker from '../../components/SourcePicker';
import VendorPicker from '../../components/VendorPicker';
import { call } from '../../api/client';
import { numbersAdd, numbersUpdate, type NumberCreate, type NumberRow, type NumberUpdate } from '../../client';
import useFormDialog from '../../hooks/useFormDialog';
import { emptyNumber, numberBody, numberToForm, validateNumber } from '../../utils/numberForm';

interface NumberDialogProps {
  open: boolean;
  number: NumberRow | null;
  onClose: () => void;
  onSaved: (notice: string) => void;
}

export default function NumberDialog({ open, number, onClose, onSaved }: NumberDialogProps) {
  const editing = number !== null;
  const owned = number?.user_id != null; // a customer's number: its calls may be a source's
  const { values, set, errors, message, saving, field, reset, submit } = useFormDialog('number', emptyNumber());

  useEffect(() => {
    if (open) reset(number ? numberToForm(number) : emptyNumber());
  }, [open, number, reset]);

  const save = async () => {
    const saved = await submit(
      (v) => validateNumber(v, { editing }),
      () =>
        // utils/numberForm's NumberBody is both bodies: a new number carries `number`, an edit
        // never does (and its country_id is not sent); its type can't say which it is.
        editing
          ? call(
              numbersUpdate({ path: { id: number.id }, body: numberBody(values, { editing, owned }) as NumberUpdate })
            )
          : call(numbersAdd({ body: numberBody(values) as NumberCreate })),
      'The number could not be saved.'
    );
    if (saved) onSaved(`Number ${saved.number} ${editing ? 'saved' : 'added to the pool'}.`);
  };

  return (
    <FormDialog
      open={open}
      name="number"
      title={editing ? `Fees and vendor of ${number.number}` : 'Add a number to the pool'}
      message={message}
      saving={saving}
      saveLabel={editing ? 'Save' : 'Add number'}
      onClose={onClose}
      onSave={save}
    >
      <Grid container spacing={2}>
        {!editing && (
          <>
            <Grid size={{ xs: 12, sm: 8 }}>
              <TextField
                {...field('number', 'Number', { helperText: 'International format, e.g. +442071838750' })}
                autoFocus
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <TextField {...field('iso2', 'Country', { helperText: "Empty: the number's own" })} />
            </Grid>
          </>
        )}
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('setup_fee', 'Setup fee', { helperText: 'Charged when a customer gets it' })} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('monthly_fee', 'Monthly fee', { helperText: 'Charged every month it is kept' })} />
        </Grid>
        <Grid size={12}>
          <VendorPicker
            value={values.vendor_id}
            onChange={(id) => set('vendor_id', id)}
            testId="number-vendor"
            error={errors.vendor_id}
          />
        </Grid>
        {editing && owned && (
          <Grid size={12}>
            <SourcePicker
              userId={number.user_id}
              value={values.source_id}
              onChange={(id) => set('source_id', id)}
              testid="number-source"
              error={errors.source_id}
            />
          </Grid>
        )}
      </Grid>
    </FormDialog>
  );
}
