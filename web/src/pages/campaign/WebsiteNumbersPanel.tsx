// A campaign's website numbers (docs/attribution.md): its pool of tracking numbers handed to
// website visitors, how long a visitor holds one, the number on the customer's pages the script
// replaces, the customer's script tag (copy) and site origins, and the pool's pressure.
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

import { call } from '../../api/client';
import { dniEditPool, dniEditSite, dniPool, dniSite, type PoolOut, type SiteOut } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import { testId } from '../../components/testId';
import { parseOrigins, scriptTag, sessionsPerNumber } from '../../utils/websiteNumbers';

interface WebsiteNumbersPanelProps {
  campaign: { id: number; name: string; user_id: number };
}

export default function WebsiteNumbersPanel({ campaign }: WebsiteNumbersPanelProps) {
  const [pool, setPool] = useState<PoolOut | null>(null);
  const [site, setSite] = useState<SiteOut | null>(null);
  const [enabled, setEnabled] = useState(false);
  const [timeout, setTimeoutMinutes] = useState('20');
  const [pageNumber, setPageNumber] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);
  const [origins, setOrigins] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);

  const show = (p: PoolOut, s: SiteOut) => {
    setPool(p);
    setSite(s);
    setEnabled(p.enabled);
    setTimeoutMinutes(String(p.timeout_minutes));
    setPageNumber(p.page_number ?? '');
    setChosen(p.numbers.filter((n) => n.in_pool).map((n) => n.id));
    setOrigins(s.origins.join('\n'));
  };

  useEffect(() => {
    Promise.all([
      call(dniPool({ path: { id: campaign.id } })),
      call(dniSite({ path: { user_id: campaign.user_id } }))
    ]).then(
      ([p, s]) => show(p, s),
      (e: unknown) => setError(failureMessage(e, 'Website numbers could not be loaded.'))
    );
  }, [campaign.id, campaign.user_id]);

  const save = async () => {
    setSaving(true);
    setError('');
    setMessage('');
    try {
      const p = await call(
        dniEditPool({
          path: { id: campaign.id },
          body: {
            enabled,
            timeout_minutes: Number(timeout),
            page_number: pageNumber.trim() || null,
            number_ids: chosen
          }
        })
      );
      const s = await call(
        dniEditSite({ path: { user_id: campaign.user_id }, body: { origins: parseOrigins(origins) } })
      );
      show(p, s);
      setMessage('Website numbers saved.');
    } catch (e) {
      setError(failureMessage(e, 'Website numbers could not be saved.'));
    } finally {
      setSaving(false);
    }
  };

  if (!pool || !site) return error ? <Alert severity="error">{error}</Alert> : null;
  const tag = scriptTag(site, window.location.origin);
  const { pressure } = pool;
  const inPool = pool.numbers.filter((n) => n.in_pool).length;
  return (
    <Stack spacing={2} data-testid="website-numbers">
      {error && <Alert severity="error">{error}</Alert>}
      {message && <Alert severity="success">{message}</Alert>}
      <FormControlLabel
        control={
          <Switch
            checked={enabled}
            onChange={(e) => setEnabled(e.target.checked)}
            slotProps={{ input: { ...testId('website-pool-enabled') } }}
          />
        }
        label="Swap the number on the website with a pool number per visitor"
      />
      <TextField
        label="Number shown on the website"
        helperText="The script replaces this number's text and tel: links, and elements of class callroute-number"
        value={pageNumber}
        onChange={(e) => setPageNumber(e.target.value)}
        slotProps={{ htmlInput: testId('website-page-number') }}
      />
      <TextField
        label="Visitor keeps its number for (minutes after its last activity)"
        type="number"
        value={timeout}
        onChange={(e) => setTimeoutMinutes(e.target.value)}
        slotProps={{ htmlInput: { min: 1, max: 1440, ...testId('website-timeout') } }}
      />
      <div>
        <Typography variant="subtitle2">Pool numbers</Typography>
        {pool.numbers.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            The campaign has no active numbers.
          </Typography>
        )}
        <FormGroup row>
          {pool.numbers.map((n) => (
            <FormControlLabel
              key={n.id}
              label={n.number}
              control={
                <Checkbox
                  checked={chosen.includes(n.id)}
                  onChange={(e) => setChosen(e.target.checked ? [...chosen, n.id] : chosen.filter((id) => id !== n.id))}
                  slotProps={{ input: { ...testId(`website-number-${n.number}`) } }}
                />
              }
            />
          ))}
        </FormGroup>
      </div>
      <Alert severity={pressure.needed > inPool ? 'warning' : 'info'} data-testid="website-pressure">
        {pressure.sessions} visitor sessions, {pressure.active} active now; a number was reused {pressure.reused} times
        while held ({sessionsPerNumber(pressure, inPool)} sessions per number). Numbers needed for the traffic seen:{' '}
        {pressure.needed} (one per visitor active at once at the peak, {pressure.peak_active}, plus a tenth); the pool
        has {inPool}.
      </Alert>
      <TextField
        label="Site origins allowed to use the script"
        helperText="Exact origins, one a line, e.g. https://shop.example"
        multiline
        minRows={2}
        value={origins}
        onChange={(e) => setOrigins(e.target.value)}
        slotProps={{ htmlInput: testId('website-origins') }}
      />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <TextField
          label="Script tag for the website's pages"
          value={tag}
          fullWidth
          slotProps={{ htmlInput: { readOnly: true, ...testId('website-script-tag') } }}
        />
        <Button
          variant="outlined"
          onClick={() => void navigator.clipboard.writeText(tag).then(() => setMessage('Script tag copied.'))}
          data-testid="website-script-copy"
        >
          Copy
        </Button>
      </Stack>
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button variant="contained" onClick={() => void save()} disabled={saving} data-testid="website-save">
          Save website numbers
        </Button>
      </Stack>
    </Stack>
  );
}
