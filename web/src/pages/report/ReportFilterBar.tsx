// The report's filters: a date preset (or custom dates), the customer, campaign, target and buyer
// chosen by name, and the spec's text filters; applied on Search. On a phone they fold behind a
// "Filters" button.
import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { FilterOutlined, SearchOutlined } from '@ant-design/icons';

import { call } from '../../api/client';
import { buyersDetails, campaignsDetails, targetsDetails } from '../../client';
import MainCard from '../../components/MainCard';
import { CustomerPicker, LoadedNamePicker, type Named } from '../../components/NamePicker';
import { testId } from '../../components/testId';
import { DISPOSITIONS, filterProblem, reportParams } from '../../utils/report';
import ChoiceField from './ChoiceField';
import { PRESETS, TEXT_FILTERS, type Preset, type ReportView } from '../../utils/reportView';

const PICKED = { perpage: 500, page: 1 } as const;
const loadCampaigns = async (): Promise<Named[]> => (await call(campaignsDetails({ query: PICKED }))).data;
const loadTargets = async (): Promise<Named[]> => (await call(targetsDetails({ query: PICKED }))).data;
const loadBuyers = async (): Promise<Named[]> => (await call(buyersDetails({ query: PICKED }))).data;
const PICKERS = [
  ['campaign_id', 'Campaign', loadCampaigns],
  ['target_id', 'Target', loadTargets],
  ['buyer_id', 'Buyer', loadBuyers]
] as const;

interface Props {
  view: ReportView;
  admin: boolean;
  onApply: (filters: Record<string, string>, preset: Preset | '') => void;
  onProblem: (problem: string) => void;
}

/** Mounted again (a `key`) when the URL's view changes, so the draft is always the view's. */
export default function ReportFilterBar({ view, admin, onApply, onProblem }: Props) {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Record<string, string>>(view.filters);
  const [preset, setPreset] = useState<Preset | ''>(view.preset);
  const set = (field: string, value: string | number) => setDraft((d) => ({ ...d, [field]: String(value) }));

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const dated = preset === 'custom' || preset === '';
    const filters = reportParams(dated ? draft : { ...draft, fromDate: '', toDate: '' });
    const problem = filterProblem(filters);
    if (problem) onProblem(problem);
    else {
      onApply(filters, preset);
      setOpen(false);
    }
  };

  const text = (field: string, label: string, type = 'text') => (
    <TextField
      size="small"
      fullWidth
      label={label}
      type={type}
      value={draft[field] ?? ''}
      onChange={(e) => set(field, e.target.value)}
      slotProps={{ htmlInput: testId(`report-${field}`), inputLabel: { shrink: true } }}
    />
  );

  return (
    <>
      {!wide && (
        <Button
          variant="outlined"
          startIcon={<FilterOutlined />}
          onClick={() => setOpen((o) => !o)}
          sx={{ mb: 2 }}
          data-testid="report-filters-toggle"
          aria-expanded={open}
        >
          Filters{Object.keys(view.filters).length + (view.preset ? 1 : 0) ? ' (set)' : ''}
        </Button>
      )}
      <Collapse in={wide || open} unmountOnExit={false}>
        <MainCard sx={{ mb: 2 }} data-testid="report-filters">
          <form onSubmit={apply}>
            <Grid container spacing={2} sx={{ alignItems: 'center' }}>
              <Grid size={{ xs: 12, sm: 6, md: 3, lg: 2 }}>
                <ChoiceField
                  label="Period"
                  value={preset}
                  none="All time"
                  options={PRESETS}
                  onChange={setPreset}
                  testid="report-preset"
                />
              </Grid>
              {(preset === 'custom' || preset === '') && (
                <>
                  <Grid size={{ xs: 6, md: 3, lg: 2 }}>{text('fromDate', 'From', 'date')}</Grid>
                  <Grid size={{ xs: 6, md: 3, lg: 2 }}>{text('toDate', 'To', 'date')}</Grid>
                </>
              )}
              {admin && (
                <Grid size={{ xs: 12, sm: 6, md: 3, lg: 2 }}>
                  <CustomerPicker
                    value={draft.user_id ?? ''}
                    onChange={(id) => set('user_id', id)}
                    testid="report-user_id"
                    helperText=""
                  />
                </Grid>
              )}
              {PICKERS.map(([field, label, load]) => (
                <Grid key={field} size={{ xs: 12, sm: 6, md: 3, lg: 2 }}>
                  <LoadedNamePicker
                    load={load}
                    label={label}
                    value={draft[field] ?? ''}
                    onChange={(id) => set(field, id)}
                    testid={`report-${field}`}
                    helperText=""
                  />
                </Grid>
              ))}
              {TEXT_FILTERS.map(([field, label]) => (
                <Grid key={field} size={{ xs: 12, sm: 6, md: 3, lg: 2 }}>
                  {field === 'disposition' ? (
                    <ChoiceField
                      label={label}
                      value={draft.disposition ?? ''}
                      none="All"
                      options={DISPOSITIONS.map((d) => [d, d] as const)}
                      onChange={(d) => set('disposition', d)}
                      testid="report-disposition"
                    />
                  ) : (
                    text(field, label)
                  )}
                </Grid>
              ))}
              <Grid size={{ xs: 12, sm: 6, md: 3, lg: 2 }}>
                <Button
                  type="submit"
                  variant="contained"
                  fullWidth
                  startIcon={<SearchOutlined />}
                  data-testid="report-search"
                >
                  Search
                </Button>
              </Grid>
            </Grid>
          </form>
        </MainCard>
      </Collapse>
    </>
  );
}
