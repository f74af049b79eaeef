import { useEffect, useMemo, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';

import MainCard from '../../components/MainCard';
import { ZonePicker } from '../../components/NamePicker';
import Notice from '../../components/Notice';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { accountProfile, accountUpdateProfile, type ProfileUpdate } from '../../client';
import { failureMessage, failureOf } from '../../hooks/apiFailure';
import { bannerMessage, firstFieldErrors, type FieldErrors } from '../../utils/validation';
import { timeZoneList } from '../../utils/time';
import { updateStoredUser } from '../../utils/storage';

export default function ProfilePage() {
  const zones = useMemo(() => timeZoneList(), []);
  const [values, setValues] = useState({ name: '', email: '', timezone: 'UTC' });
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');

  useEffect(() => {
    let alive = true;
    call(accountProfile())
      .then((p) => alive && p && setValues({ name: p.name ?? '', email: p.email ?? '', timezone: p.timezone ?? 'UTC' }))
      .catch((err: unknown) => alive && setError(failureMessage(err, 'The profile could not be loaded.')))
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
  }, []);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setError('');
    setNotice('');
    if (!values.name.trim()) {
      setErrors({ name: 'Name is required' });
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      // The zone is one the picker offers (the browser's list); the server checks it against its own.
      const timezone = values.timezone as ProfileUpdate['timezone'];
      const saved = await call(accountUpdateProfile({ body: { name: values.name.trim(), timezone } }));
      updateStoredUser({ name: saved?.name ?? values.name.trim(), timezone: saved?.timezone ?? values.timezone });
      setNotice('Profile saved.');
    } catch (err) {
      const failure = failureOf(err);
      setErrors(firstFieldErrors(failure.errors));
      setError(bannerMessage(failure, ['name', 'timezone'], 'The profile could not be saved.'));
    } finally {
      setSaving(false);
    }
  };

  const options = zones.includes(values.timezone) ? zones : [values.timezone, ...zones];

  return (
    <>
      <PageTitle title="Profile" />
      <MainCard title="Your profile" sx={{ maxWidth: 560 }} content={false}>
        {loading && <LinearProgress sx={{ borderRadius: 0 }} />}
        <Stack component="form" noValidate spacing={2.5} onSubmit={submit} sx={{ p: 2.5 }}>
          {error && (
            <Alert severity="error" data-testid="profile-error">
              {error}
            </Alert>
          )}
          <TextField
            label="Name"
            value={values.name}
            onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))}
            error={Boolean(errors.name)}
            helperText={errors.name}
            fullWidth
            disabled={loading}
          />
          <TextField label="Email Address" value={values.email} fullWidth disabled />
          <ZonePicker
            zones={options}
            value={values.timezone}
            onChange={(zone) => setValues((v) => ({ ...v, timezone: zone }))}
            testId="profile-timezone"
            error={errors.timezone}
            helperText="Type to search, e.g. Berlin"
          />
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <Button type="submit" variant="contained" disabled={saving || loading}>
              Save
            </Button>
          </Stack>
        </Stack>
      </MainCard>
      <Notice text={notice} onClose={() => setNotice('')} testid="profile-notice" />
    </>
  );
}
