import type { FormEvent } from 'react';
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
import { login } from '../../api/auth';
import { failureMessage } from '../../hooks/apiFailure';
import { validateLogin } from '../../utils/validation';
import { DASHBOARD_PATH } from '../../config';

export default function Login() {
  usePageTitle('Login');
  const navigate = useNavigate();
  const { values, change, blur, shown, checkAll, serverError, setServerError, submitting, setSubmitting } =
    useValidatedForm({ email: '', password: '' }, validateLogin);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checkAll()) return;
    setSubmitting(true);
    try {
      await login(values);
      navigate(DASHBOARD_PATH, { replace: true });
    } catch (err) {
      setServerError(failureMessage(err, 'Sign-in failed. Please try again.'));
      setSubmitting(false);
    }
  };

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2.5} data-testid="login-form">
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
        <Typography variant="h3" component="h1">
          Login
        </Typography>
        <Link component={RouterLink} to="/register" variant="body1" color="primary">
          Don&apos;t have an account?
        </Link>
      </Stack>
      {serverError && (
        <Alert severity="error" data-testid="login-error">
          {serverError}
        </Alert>
      )}
      <TextField
        id="email"
        name="email"
        label="Email Address"
        type="email"
        autoComplete="username"
        placeholder="Enter email address"
        value={values.email}
        onChange={change('email')}
        onBlur={blur('email')}
        error={Boolean(shown('email'))}
        helperText={shown('email')}
        fullWidth
        autoFocus
      />
      <PasswordField
        id="password"
        name="password"
        label="Password"
        autoComplete="current-password"
        placeholder="Enter password"
        value={values.password}
        onChange={change('password')}
        onBlur={blur('password')}
        error={Boolean(shown('password'))}
        helperText={shown('password')}
        fullWidth
      />
      <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: -1 }}>
        {/* No blur on press: the empty email's error would push the link away from the pointer. */}
        <Link
          component={RouterLink}
          to="/forgot-password"
          variant="body2"
          data-testid="login-forgot"
          onMouseDown={(e) => e.preventDefault()}
        >
          Forgot password?
        </Link>
      </Stack>
      <Button
        type="submit"
        variant="contained"
        size="large"
        fullWidth
        disabled={submitting}
        data-testid="login-submit"
        startIcon={submitting ? <CircularProgress size={16} color="inherit" /> : null}
      >
        Login
      </Button>
    </Stack>
  );
}
