// Add or edit a tariff: its name, currency (fixed once customers or calls use it) and description.
import { useEffect } from 'react';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';

import FormDialog from '../../components/FormDialog';
import { call } from '../../api/client';
import { tariffsAdd, tariffsUpdate, type TariffOut } from '../../client';
import useFormDialog from '../../hooks/useFormDialog';
import { emptyTariff, tariffBody, tariffToForm, validateTariff } from '../../utils/tariffForm';

interface TariffDialogProps {
  open: boolean;
  tariff: TariffOut | null;
  onClose: () => void;
  onSaved: (notice: string) => void;
}

export default function TariffDialog({ open, tariff, onClose, onSaved }: TariffDialogProps) {
  const editing = tariff !== null;
  const { values, message, saving, field, reset, submit } = useFormDialog('tariff', emptyTariff());

  useEffect(() => {
    if (open) reset(tariff ? tariffToForm(tariff) : emptyTariff());
  }, [open, tariff, reset]);

  const save = async () => {
    const saved = await submit(
      validateTariff,
      () =>
        editing
          ? call(tariffsUpdate({ path: { id: tariff.id }, body: tariffBody(values) }))
          : call(tariffsAdd({ body: tariffBody(values) })),
      'The tariff could not be saved.'
    );
    if (saved) onSaved(`Tariff ${saved.name} ${editing ? 'saved' : 'created'}.`);
  };

  return (
    <FormDialog
      open={open}
      name="tariff"
      title={editing ? `Edit tariff ${tariff.name}` : 'Add tariff'}
      message={message}
      saving={saving}
      saveLabel={editing ? 'Save' : 'Add tariff'}
      onClose={onClose}
      onSave={save}
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 8 }}>
          <TextField {...field('name', 'Name')} autoFocus />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <TextField {...field('currency', 'Currency', { helperText: 'ISO code: its customers pay in it' })} />
        </Grid>
        <Grid size={12}>
          <TextField {...field('description', 'Description')} multiline minRows={2} />
        </Grid>
      </Grid>
    </FormDialog>
  );
}
