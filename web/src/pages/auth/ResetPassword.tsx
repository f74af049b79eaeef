// The page a reset mail links to (/reset-password?token=...): a new password, then sign in.
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

import PasswordField from '../../components/PasswordField';
import useValidatedForm from '../../hooks/useValidatedForm';
import { usePageTitle } from '../../components/PagePlaceholder';
import { resetPassword } from '../../api/auth';
import { failureOf } from '../../hooks/apiFailure';
import { firstFieldErrors, validateResetPassword } from '../../utils/validation';

export default function ResetPassword() {
  usePageTitle('Reset password');
  const [params] = useSearchParams();
  const token = params.get('token') || '';
  const { values, change, blur, shown, checkAll, setErrors, serverError, setServerError, submitting, setSubmitting } =
    useValidatedForm({ next: '', confirm: '' }, validateResetPassword);
  const [done, setDone] = useState('');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checkAll()) return;
    setSubmitting(true);
    try {
      setDone(await resetPassword(token, values.next));
    } catch (err) {
      const failure = failureOf(err);
      const fields = firstFieldErrors(failure.errors);
      if (fields.new_password) setErrors({ next: fields.new_password });
      else setServerError(fields.token || failure.message || 'The password could not be changed.');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2.5} data-testid="reset-form">
      <Typography variant="h3" component="h1">
        Reset password
      </Typography>
      {!token && <Alert severity="error">This link has no reset token: open the link from the mail again.</Alert>}
      {serverError && (
        <Alert severity="error" data-testid="reset-error">
          {serverError}{' '}
          <Link component={RouterLink} to="/forgot-password">
            Ask for a new link
          </Link>
        </Alert>
      )}
      {done ? (
        <Alert severity="success" data-testid="reset-done">
          {done}{' '}
          <Link component={RouterLink} to="/login">
            Sign in
          </Link>
        </Alert>
      ) : (
        <>
          <PasswordField
            id="new-password"
            label="New Password"
            autoComplete="new-password"
            value={values.next}
            onChange={change('next')}
            onBlur={blur('next')}
            error={Boolean(shown('next'))}
            helperText={shown('next') || 'At least 8 characters, with a letter and a digit'}
            fullWidth
          />
          <PasswordField
            id="confirm-password"
            label="Confirm New Password"
            autoComplete="new-password"
            value={values.confirm}
            onChange={change('confirm')}
            onBlur={blur('confirm')}
            error={Boolean(shown('confirm'))}
            helperText={shown('confirm')}
            fullWidth
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            fullWidth
            disabled={submitting || !token}
            data-testid="reset-submit"
          >
            Set new password
          </Button>
        </>
      )}
    </Stack>
  );
}
