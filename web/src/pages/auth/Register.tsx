import { useMemo, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

import PasswordField from '../../components/PasswordField';
import useValidatedForm from '../../hooks/useValidatedForm';
import { usePageTitle } from '../../components/PagePlaceholder';
import { register } from '../../api/auth';
import { failureOf } from '../../hooks/apiFailure';
import { firstFieldErrors, validateRegister } from '../../utils/validation';
import { browserTimeZone, timeZoneList } from '../../utils/time';
import { DASHBOARD_PATH } from '../../config';

export default function Register() {
  usePageTitle('Register');
  const navigate = useNavigate();
  const zones = useMemo(() => {
    const list = timeZoneList();
    const own = browserTimeZone();
    return list.includes(own) ? list : [own, ...list];
  }, []);
  const { values, setErrors, change, blur, shown, checkAll, serverError, setServerError, submitting, setSubmitting } =
    useValidatedForm({ name: '', email: '', password: '', confirm: '', timezone: browserTimeZone() }, validateRegister);
  // Set when the server mailed a link to finish (the same answer whether or not the address is known).
  const [pending, setPending] = useState('');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checkAll()) return;
    setSubmitting(true);
    try {
      const result = await register(values);
      if ('pending' in result) {
        setPending(result.message);
        setSubmitting(false);
        return;
      }
      navigate(DASHBOARD_PATH, { replace: true });
    } catch (err) {
      const failure = failureOf(err);
      const fieldErrors = firstFieldErrors(failure.errors);
      if (failure.code === 409 && !fieldErrors.email)
        fieldErrors.email = failure.message || 'This email is already registered';
      setErrors(fieldErrors);
      setServerError(failure.message || 'Registration failed. Please try again.');
      setSubmitting(false);
    }
  };

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2.5} data-testid="register-form">
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
        <Typography variant="h3" component="h1">
          Sign up
        </Typography>
        <Link component={RouterLink} to="/login" variant="body1" color="primary">
          Already have an account?
        </Link>
      </Stack>
      {serverError && (
        <Alert severity="error" data-testid="register-error">
          {serverError}
        </Alert>
      )}
      {pending && (
        <Alert severity="success" data-testid="register-pending">
          {pending}
        </Alert>
      )}
      <TextField
        id="name"
        name="name"
        label="Name"
        autoComplete="name"
        placeholder="Your name or company"
        value={values.name}
        onChange={change('name')}
        onBlur={blur('name')}
        error={Boolean(shown('name'))}
        helperText={shown('name')}
        fullWidth
        autoFocus
      />
      <TextField
        id="email"
        name="email"
        label="Email Address"
        type="email"
        autoComplete="email"
        placeholder="name@company.com"
        value={values.email}
        onChange={change('email')}
        onBlur={blur('email')}
        error={Boolean(shown('email'))}
        helperText={shown('email')}
        fullWidth
      />
      <PasswordField
        id="password"
        name="password"
        label="Password"
        autoComplete="new-password"
        value={values.password}
        onChange={change('password')}
        onBlur={blur('password')}
        error={Boolean(shown('password'))}
        helperText={shown('password') || 'At least 8 characters, with a letter and a digit'}
        fullWidth
      />
      <PasswordField
        id="confirm"
        name="confirm"
        label="Confirm Password"
        autoComplete="new-password"
        value={values.confirm}
        onChange={change('confirm')}
        onBlur={blur('confirm')}
        error={Boolean(shown('confirm'))}
        helperText={shown('confirm')}
        fullWidth
      />
      <TextField
        id="timezone"
        name="timezone"
        label="Timezone"
        select
        value={values.timezone}
        onChange={change('timezone')}
        onBlur={blur('timezone')}
        error={Boolean(shown('timezone'))}
        helperText={shown('timezone')}
        fullWidth
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      >
        {zones.map((z) => (
          <option key={z} value={z}>
            {z}
          </option>
        ))}
      </TextField>
      <Button
        type="submit"
        variant="contained"
        size="large"
        fullWidth
        disabled={submitting}
        data-testid="register-submit"
        startIcon={submitting ? <CircularProgress size={16} color="inherit" /> : null}
      >
        Create Account
      </Button>
    </Stack>
  );
}
