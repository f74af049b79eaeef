// Add or edit a vendor: its name (unique) and who to call there.
import { useEffect } from 'react';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';

import FormDialog from '../../components/FormDialog';
import { call } from '../../api/client';
import { vendorsAdd, vendorsUpdate, type VendorOut } from '../../client';
import useFormDialog from '../../hooks/useFormDialog';
import { emptyVendor, validateVendor, vendorBody, vendorToForm } from '../../utils/vendorForm';

interface VendorDialogProps {
  open: boolean;
  vendor: VendorOut | null;
  onClose: () => void;
  onSaved: (notice: string) => void;
}

export default function VendorDialog({ open, vendor, onClose, onSaved }: VendorDialogProps) {
  const { values, message, saving, field, reset, submit } = useFormDialog('vendor', emptyVendor());

  useEffect(() => {
    if (open) reset(vendor ? vendorToForm(vendor) : emptyVendor());
  }, [open, vendor, reset]);

  const save = async () => {
    const saved = await submit(
      validateVendor,
      () =>
        vendor
          ? call(vendorsUpdate({ path: { id: vendor.id }, body: vendorBody(values) }))
          : call(vendorsAdd({ body: vendorBody(values) })),
      'The vendor could not be saved.'
    );
    if (saved) onSaved(`Vendor ${saved.name} ${vendor ? 'saved' : 'created'}.`);
  };

  return (
    <FormDialog
      open={open}
      name="vendor"
      title={vendor ? `Edit vendor ${vendor.name}` : 'Add vendor'}
      message={message}
      saving={saving}
      saveLabel={vendor ? 'Save' : 'Add vendor'}
      onClose={onClose}
      onSave={save}
    >
      <Grid container spacing={2}>
        <Grid size={12}>
          <TextField
            {...field('name', 'Name', { helperText: 'As the carrier is known; the number CSV names it so' })}
            autoFocus
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('contact_name', 'Contact')} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('phone', 'Phone')} />
        </Grid>
        <Grid size={12}>
          <TextField {...field('email', 'Email')} />
        </Grid>
      </Grid>
    </FormDialog>
  );
}
