// "Forgot password?": the server mails a one-time link where mail is set up, or tells the
// administrators, who set a new password (User, Edit). Its answer is the same for any address.
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

import useValidatedForm from '../../hooks/useValidatedForm';
import { usePageTitle } from '../../components/PagePlaceholder';
import { forgotPassword } from '../../api/auth';
import { failureMessage } from '../../hooks/apiFailure';
import { validateEmail } from '../../utils/validation';

const validate = ({ email }: { email: string }) => (validateEmail(email) ? { email: validateEmail(email) } : {});

export default function ForgotPassword() {
  usePageTitle('Forgot password');
  const { values, change, blur, shown, checkAll, serverError, setServerError, submitting, setSubmitting } =
    useValidatedForm({ email: '' }, validate);
  const [answer, setAnswer] = useState('');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checkAll()) return;
    setSubmitting(true);
    try {
      setAnswer(await forgotPassword(values.email));
    } catch (err) {
      setServerError(failureMessage(err, 'The request could not be sent.'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2.5} data-testid="forgot-form">
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
        <Typography variant="h3" component="h1">
          Forgot password
        </Typography>
        <Link component={RouterLink} to="/login" variant="body1">
          Back to login
        </Link>
      </Stack>
      {serverError && <Alert severity="error">{serverError}</Alert>}
      {answer ? (
        <Alert severity="info" data-testid="forgot-answer">
          {answer}
        </Alert>
      ) : (
        <>
          <Typography color="text.secondary">Enter the email address you sign in with.</Typography>
          <TextField
            id="email"
            label="Email Address"
            type="email"
            autoComplete="username"
            value={values.email}
            onChange={change('email')}
            onBlur={blur('email')}
            error={Boolean(shown('email'))}
            helperText={shown('email')}
            fullWidth
            autoFocus
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            fullWidth
            disabled={submitting}
            data-testid="forgot-submit"
          >
            Send reset link
          </Button>
        </>
      )}
    </Stack>
  );
}
