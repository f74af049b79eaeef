import { useState, type ChangeEvent, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';

import MainCard from '../../components/MainCard';
import PasswordField from '../../components/PasswordField';
import { PageTitle } from '../../components/PagePlaceholder';
import { accountChangePassword } from '../../client';
import { failureOf } from '../../hooks/apiFailure';
import Notice from '../../components/Notice';
import {
  bannerMessage,
  firstFieldErrors,
  validateChangePassword,
  type ChangePasswordValues,
  type FieldErrors
} from '../../utils/validation';

const EMPTY: ChangePasswordValues = { current: '', next: '', confirm: '' };

export default function ChangePasswordPage() {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [submitting, setSubmitting] = useState(false);

  const change = (field: keyof ChangePasswordValues) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setError('');
    setNotice('');
    const found = validateChangePassword(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setSubmitting(true);
    try {
      const { data: res } = await accountChangePassword({
        body: { current_password: values.current, new_password: values.next }
      });
      setNotice(res?.message || 'Password changed.');
      setValues(EMPTY);
    } catch (err) {
      const failure = failureOf(err);
      const f = firstFieldErrors(failure.errors);
      setErrors({ current: f.current_password, next: f.new_password });
      setError(bannerMessage(failure, ['current_password', 'new_password'], 'The password could not be changed.'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <>
      <PageTitle title="Change Password" />
      <MainCard title="Change your password" sx={{ maxWidth: 560 }}>
        <Stack component="form" noValidate spacing={2.5} onSubmit={submit} data-testid="change-password-form">
          {error && (
            <Alert severity="error" data-testid="change-password-error">
              {error}
            </Alert>
          )}
          <PasswordField
            label="Current Password"
            autoComplete="current-password"
            value={values.current}
            onChange={change('current')}
            error={Boolean(errors.current)}
            helperText={errors.current}
            fullWidth
          />
          <PasswordField
            label="New Password"
            autoComplete="new-password"
            value={values.next}
            onChange={change('next')}
            error={Boolean(errors.next)}
            helperText={errors.next || 'At least 8 characters, with a letter and a digit'}
            fullWidth
          />
          <PasswordField
            label="Confirm New Password"
            autoComplete="new-password"
            value={values.confirm}
            onChange={change('confirm')}
            error={Boolean(errors.confirm)}
            helperText={errors.confirm}
            fullWidth
          />
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <Button type="submit" variant="contained" disabled={submitting}>
              Change Password
            </Button>
          </Stack>
        </Stack>
      </MainCard>
      <Notice text={notice} onClose={() => setNotice('')} testid="change-password-notice" />
    </>
  );
}
