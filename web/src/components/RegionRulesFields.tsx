// The caller-region settings of a target (which callers it takes) or a campaign (which it blocks):
// places, line types and what to do when the number doesn't tell the region (docs/regions.md).
import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Grid from '@mui/material/Grid';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

import { SelectField } from './FormDialog';
import type { LineType, RegionMode } from '../client';
import { LINE_TYPES, REGION_MODES, type CampaignRulesForm } from '../utils/regionRules';
import { testId } from './testId';

/** A target's rules (with `mode`) or a campaign's (without). */
type RulesForm = CampaignRulesForm & { mode?: RegionMode };

interface RegionRulesFieldsProps<Value extends RulesForm> {
  kind: 'target' | 'campaign';
  value: Value;
  onChange: (value: Value) => void;
  error?: string | undefined;
}

export default function RegionRulesFields<Value extends RulesForm>({
  kind,
  value,
  onChange,
  error
}: RegionRulesFieldsProps<Value>) {
  const target = kind === 'target';
  const set = <K extends keyof RulesForm>(name: K, next: RulesForm[K]) => onChange({ ...value, [name]: next });
  const toggle = (type: LineType, on: boolean) =>
    set('line_types', on ? [...value.line_types, type] : value.line_types.filter((t) => t !== type));
  const showPlaces = !target || value.mode !== 'all';
  return (
    <Grid container spacing={2} data-testid={`${kind}-region-rules`}>
      <Grid size={12}>
        <Typography variant="subtitle1">Caller regions</Typography>
        <Typography variant="caption" color="text.secondary">
          Read from the caller&apos;s number: country, region (US state, UK city...) and line type. Places are written
          US, GB or US:California.
        </Typography>
      </Grid>
      {target && (
        <Grid size={{ xs: 12, sm: 6 }}>
          <SelectField
            label="Regions taken"
            value={value.mode}
            // The DOM's value is one of REGION_MODES.
            onChange={(e) => set('mode', e.target.value as RegionMode)}
            options={REGION_MODES}
            fullWidth
            size="small"
            slotProps={{ htmlInput: { 'data-testid': 'target-region-mode' } }}
          />
        </Grid>
      )}
      {showPlaces && (
        <Grid size={{ xs: 12, sm: target ? 6 : 12 }}>
          <TextField
            label={target ? 'Places' : 'Blocked places'}
            value={value.places}
            onChange={(e) => set('places', e.target.value)}
            helperText="Commas between them, e.g. US:California, US:Texas, GB"
            fullWidth
            size="small"
            slotProps={{
              htmlInput: { 'data-testid': `${kind}-region-places`, 'aria-label': target ? 'Places' : 'Blocked places' }
            }}
          />
        </Grid>
      )}
      <Grid size={12}>
        <Typography variant="body2">{target ? 'Line types not taken' : 'Line types blocked'}</Typography>
        <FormGroup row>
          {LINE_TYPES.map(([type, label]) => (
            <FormControlLabel
              key={type}
              control={
                <Checkbox
                  checked={value.line_types.includes(type)}
                  onChange={(e) => toggle(type, e.target.checked)}
                  slotProps={{ input: { ...testId(`${kind}-line-${type}`) } }}
                />
              }
              label={label}
            />
          ))}
        </FormGroup>
      </Grid>
      <Grid size={12}>
        <FormControlLabel
          control={
            <Switch
              checked={value.accept_unknown}
              onChange={(e) => set('accept_unknown', e.target.checked)}
              slotProps={{ input: { ...testId(`${kind}-accept-unknown`) } }}
            />
          }
          label="Take callers whose region is unknown (withheld numbers, most mobiles, toll-free)"
        />
      </Grid>
      {error && (
        <Grid size={12}>
          <Alert severity="error">{error}</Alert>
        </Grid>
      )}
    </Grid>
  );
}
