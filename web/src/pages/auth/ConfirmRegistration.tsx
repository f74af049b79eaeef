// The page a sign-up mail links to (/register/confirm?token=...): creates the account, signs it in.
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

import { usePageTitle } from '../../components/PagePlaceholder';
import { confirmRegistration } from '../../api/auth';
import { failureOf } from '../../hooks/apiFailure';
import { firstFieldErrors } from '../../utils/validation';
import { DASHBOARD_PATH } from '../../config';

export default function ConfirmRegistration() {
  usePageTitle('Sign up');
  const [params] = useSearchParams();
  const token = params.get('token') || '';
  const navigate = useNavigate();
  const [error, setError] = useState(token ? '' : 'This link has no sign-up token: open the link from the mail again.');
  const sent = useRef(false); // the link works once: never post it twice (React's strict mode mounts twice)

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    confirmRegistration(token)
      .then(() => navigate(DASHBOARD_PATH, { replace: true }))
      .catch((err: unknown) => {
        const failure = failureOf(err);
        setError(firstFieldErrors(failure.errors).token || failure.message || 'The account could not be created.');
      });
  }, [token, navigate]);

  return (
    <Stack spacing={2.5} data-testid="confirm-signup">
      <Typography variant="h3" component="h1">
        Sign up
      </Typography>
      {error ? (
        <Alert severity="error" data-testid="confirm-signup-error">
          {error}{' '}
          <Link component={RouterLink} to="/register">
            Sign up again
          </Link>
        </Alert>
      ) : (
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <CircularProgress size={20} />
          <Typography>Creating your account…</Typography>
        </Stack>
      )}
    </Stack>
  );
}
