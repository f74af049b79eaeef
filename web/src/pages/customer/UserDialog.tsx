// Add or edit a user: a customer (with its tariff, picked by name) or another administrator.
import { useEffect, useMemo } from 'react';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';

import FormDialog, { SelectField } from '../../components/FormDialog';
import NamePicker, { ZonePicker } from '../../components/NamePicker';
import PasswordField from '../../components/PasswordField';
import { call } from '../../api/client';
import { usersAdd, usersAddAdmin, usersUpdate, type TariffOut, type UserCreate, type UserOut } from '../../client';
import useFormDialog from '../../hooks/useFormDialog';
import { timeZoneList } from '../../utils/time';
import { ACCOUNT_KINDS, emptyUser, userBody, userToForm, validateUser } from '../../utils/userForm';

interface UserDialogProps {
  open: boolean;
  user: UserOut | null;
  tariffs: TariffOut[];
  onClose: () => void;
  onSaved: (notice: string) => void;
}

export default function UserDialog({ open, user, tariffs, onClose, onSaved }: UserDialogProps) {
  const editing = user !== null;
  const { values, set, errors, message, saving, field, reset, submit } = useFormDialog('user', emptyUser());
  const zones = useMemo(() => timeZoneList(), []);

  useEffect(() => {
    if (open) reset(user ? userToForm(user) : emptyUser());
  }, [open, user, reset]);

  // Active tariffs to choose from, and the user's own even when it is inactive now.
  const tariffOptions = tariffs.filter((t) => t.status === 'active' || t.id === user?.tariff_id);

  const save = async () => {
    const body = userBody(values, { editing });
    const saved = await submit(
      (v) => validateUser(v, { editing }),
      () => {
        if (editing) return call(usersUpdate({ path: { id: user.id }, body }));
        // A new account's body always carries its password (userBody leaves it out of an edit only).
        const created = body as UserCreate;
        return values.kind === 'admin' ? call(usersAddAdmin({ body: created })) : call(usersAdd({ body: created }));
      },
      'The user could not be saved.'
    );
    if (saved) onSaved(`User ${saved.name} ${editing ? 'saved' : 'created'}.`);
  };

  return (
    <FormDialog
      open={open}
      name="user"
      title={editing ? `Edit user ${user.name}` : 'Add user'}
      message={message}
      saving={saving}
      saveLabel={editing ? 'Save' : 'Add user'}
      onClose={onClose}
      onSave={save}
      maxWidth="md"
    >
      <Grid container spacing={2}>
        {!editing && (
          <Grid size={{ xs: 12, sm: 6 }}>
            <SelectField
              {...field('kind', 'Account', {
                helperText:
                  values.kind === 'admin'
                    ? 'Administrators manage the whole platform'
                    : 'A customer buys numbers, runs campaigns and pays from its wallet'
              })}
              options={ACCOUNT_KINDS}
            />
          </Grid>
        )}
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('name', 'Name')} autoFocus />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('email', 'Email', { helperText: 'The sign-in name' })} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <PasswordField
            {...field('password', 'Password', {
              helperText: editing ? 'Leave blank to keep the password' : 'At least 8 characters, a letter and a digit'
            })}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <ZonePicker
            zones={zones}
            value={values.timezone}
            onChange={(zone) => set('timezone', zone)}
            testId="user-timezone"
            error={errors.timezone}
            helperText="Times are shown to the user in this zone"
          />
        </Grid>
        {values.kind === 'customer' && (
          <Grid size={{ xs: 12, sm: 6 }}>
            <NamePicker
              label="Tariff"
              options={tariffOptions}
              value={values.tariff_id}
              onChange={(id) => set('tariff_id', id)}
              testId="user-tariff"
              error={errors.tariff_id}
              helperText={
                tariffOptions.length ? 'The prices its calls are rated at' : 'No active tariff yet (Tariff screen)'
              }
              describe={(t) => `${t.name} (${t.currency})`}
            />
          </Grid>
        )}
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('company', 'Company')} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('phone', 'Phone')} />
        </Grid>
      </Grid>
    </FormDialog>
  );
}
