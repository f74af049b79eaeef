// Add or edit one buyer and its sign-in (email and password).
import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';

import FormDialog from '../../components/FormDialog';
import PasswordField from '../../components/PasswordField';
import { call } from '../../api/client';
import { buyersAdd, buyersUpdate, type BuyerOut } from '../../client';
import useFormDialog from '../../hooks/useFormDialog';
import { buyerBody, buyerToForm, emptyBuyer, validateBuyer } from '../../utils/buyerForm';
import { getStoredUser } from '../../utils/storage';
import { signInText } from './SignInState';

interface BuyerDialogProps {
  open: boolean;
  buyer: BuyerOut | null;
  admin: boolean;
  onClose: () => void;
  onSaved: (notice: string) => void;
}

export default function BuyerDialog({ open, buyer, admin, onClose, onSaved }: BuyerDialogProps) {
  const editing = buyer !== null;
  const { values, message, saving, field, reset, submit } = useFormDialog('buyer', emptyBuyer());

  useEffect(() => {
    if (open) reset(buyer ? buyerToForm(buyer) : emptyBuyer());
  }, [open, buyer, reset]);

  const save = async () => {
    const saved = await submit(
      (v) => validateBuyer(v, { editing, needsOwner: admin && !editing }),
      () =>
        editing
          ? call(buyersUpdate({ path: { id: buyer.id }, body: buyerBody(values, { editing }) }))
          : // a new buyer's body always carries the password
            call(buyersAdd({ body: { ...buyerBody(values, { admin }), password: values.password } })),
      'The buyer could not be saved.'
    );
    if (saved) onSaved(`Buyer ${saved.name} ${editing ? 'saved' : 'created'}.`);
  };

  return (
    <FormDialog
      open={open}
      name="buyer"
      title={editing ? `Edit buyer ${buyer.name}` : 'Add buyer'}
      message={message}
      saving={saving}
      saveLabel={editing ? 'Save' : 'Add buyer'}
      onClose={onClose}
      onSave={save}
    >
      {editing && (
        <Alert
          severity={buyer.sign_in === 'active' ? 'success' : 'warning'}
          sx={{ mb: 2 }}
          data-testid="buyer-sign-in-state"
        >
          {signInText(buyer, getStoredUser()?.timezone)}
          {buyer.sign_in !== 'active' &&
            ': set a password below to make its sign-in with this email, or send an invitation from the list.'}
        </Alert>
      )}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: admin && !editing ? 8 : 12 }}>
          <TextField {...field('name', 'Name')} autoFocus />
        </Grid>
        {admin && !editing && (
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField {...field('user_id', 'Customer ID', { helperText: 'The customer it buys from' })} />
          </Grid>
        )}
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('email', 'Email', { helperText: 'The buyer signs in with it' })} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <PasswordField
            {...field('password', 'Password', {
              helperText: editing
                ? buyer.sign_in === 'active'
                  ? 'Leave blank to keep the current one'
                  : 'Sets its sign-in: this email and this password'
                : 'At least 8 characters, a letter and a digit'
            })}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('phone', 'Phone')} />
        </Grid>
      </Grid>
    </FormDialog>
  );
}
