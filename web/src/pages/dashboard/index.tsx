// The dashboard: a period's calls (how many, answered, missed, refused, talk time, spend or
// payout, live now), calls over the period, where they went and where they came from (by source);
// the admin also sees each customer.
import { useEffect, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';

import { EmptyRow } from '../../components/ListParts';
import MainCard from '../../components/MainCard';
import { PageTitle } from '../../components/PagePlaceholder';
import CallsBars from './CallsBars';
import PoolPressureCard from './PoolPressureCard';
import RegionChart from './RegionChart';
import SourcesCard from './SourcesCard';
import { call } from '../../api/client';
import {
  dashboardCallDetail,
  dashboardCalls,
  dashboardCustomerCounts,
  type CallDetail,
  type DashboardCalls,
  type PartyCounts,
  type Period,
  type Slice
} from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import { formatBalance } from '../../utils/balance';
import { formatSeconds } from '../../utils/time';
import { bucketLabel, dispositionColor, seriesIsEmpty } from '../../utils/report';
import { isAdmin, isBuyer } from '../../utils/roles';
import { getStoredUser } from '../../utils/storage';

const PERIODS: [Period, string][] = [
  ['today', 'Today'],
  ['yesterday', 'Yesterday'],
  ['week', '7 days'],
  ['month', 'This month']
];

interface StatProps {
  label: string;
  value: ReactNode;
  hint?: string;
  testid: string;
}

function Stat({ label, value, hint, testid }: StatProps) {
  return (
    <MainCard contentSx={{ p: 2.25 }} data-testid={testid}>
      <Typography variant="h6" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h3" sx={{ mt: 0.5 }} data-testid={`${testid}-value`}>
        {value}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {hint || ' '}
      </Typography>
    </MainCard>
  );
}

function SliceTable({ title, rows, testid }: { title: string; rows: Slice[]; testid: string }) {
  return (
    <MainCard content={false} title={title}>
      <Table size="small" data-testid={testid}>
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell align="right">Calls</TableCell>
            <TableCell align="right">Answered</TableCell>
            <TableCell align="right">Talk</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={`${r.id}`}>
              <TableCell>{r.name}</TableCell>
              <TableCell align="right">{r.calls}</TableCell>
              <TableCell align="right">{r.answered}</TableCell>
              <TableCell align="right">{formatSeconds(r.talk_seconds)}</TableCell>
            </TableRow>
          ))}
          {rows.length === 0 && <EmptyRow colSpan={4} text="No calls in this period." />}
        </TableBody>
      </Table>
    </MainCard>
  );
}

export default function DashboardPage() {
  const user = getStoredUser();
  const admin = isAdmin(user);
  const buyer = isBuyer(user);
  const [period, setPeriod] = useState<Period>('today');
  const [counts, setCounts] = useState<DashboardCalls | null>(null);
  const [detail, setDetail] = useState<CallDetail | null>(null);
  const [customers, setCustomers] = useState<PartyCounts[]>([]);
  // What was asked (period and role) and its outcome: loading until the asked one is answered;
  // a failure is shown for the query it was for.
  const asked = `${period}|${admin}`;
  const [answered, setAnswered] = useState<{ asked: string; error: string } | null>(null);
  const loading = answered?.asked !== asked;
  const error = loading ? '' : (answered?.error ?? '');

  useEffect(() => {
    let cancelled = false;
    const query = { query: { type: period } };
    Promise.all([
      call(dashboardCalls(query)),
      call(dashboardCallDetail(query)),
      admin ? call(dashboardCustomerCounts()) : Promise.resolve([])
    ])
      .then(([c, d, list]) => {
        if (cancelled) return;
        setCounts(c);
        setDetail(d);
        setCustomers(Array.isArray(list) ? list : []);
        setAnswered({ asked: `${period}|${admin}`, error: '' });
      })
      .catch(
        (err: unknown) =>
          !cancelled &&
          setAnswered({ asked: `${period}|${admin}`, error: failureMessage(err, 'The dashboard could not be loaded.') })
      );
    return () => {
      cancelled = true;
    };
  }, [period, admin]);

  const hourly = period === 'today' || period === 'yesterday';
  const series = (counts?.series ?? []).map((b) => ({
    label: bucketLabel(b.at, hourly),
    Calls: b.calls,
    Answered: b.answered
  }));
  const rate = counts ? `${Math.round(counts.answer_rate * 100)}% answered` : '';

  return (
    <>
      <PageTitle title="Dashboard">
        <ToggleButtonGroup
          size="small"
          exclusive
          value={period}
          onChange={(_, p) => p && setPeriod(p)}
          aria-label="Period"
        >
          {PERIODS.map(([value, label]) => (
            <ToggleButton key={value} value={value} data-testid={`period-${value}`}>
              {label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </PageTitle>
      {loading && <LinearProgress sx={{ mb: 2 }} />}
      {error && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="dashboard-error">
          {error}
        </Alert>
      )}
      {counts && (
        <Grid container spacing={2.5}>
          <Grid size={{ xs: 6, md: 4, lg: 2 }}>
            <Stat label="Calls" value={counts.calls} hint={`${counts.live_calls} live now`} testid="stat-calls" />
          </Grid>
          <Grid size={{ xs: 6, md: 4, lg: 2 }}>
            <Stat label="Answered" value={counts.answered} hint={rate} testid="stat-answered" />
          </Grid>
          <Grid size={{ xs: 6, md: 4, lg: 2 }}>
            <Stat label="Missed" value={counts.missed} hint="no answer, busy, failed" testid="stat-missed" />
          </Grid>
          <Grid size={{ xs: 6, md: 4, lg: 2 }}>
            <Stat label="Refused" value={counts.refused} hint="blocked, duplicate, …" testid="stat-refused" />
          </Grid>
          <Grid size={{ xs: 6, md: 4, lg: 2 }}>
            <Stat
              label="Average talk"
              value={formatSeconds(counts.average_talk_seconds)}
              hint={`${counts.converted} converted`}
              testid="stat-talk"
            />
          </Grid>
          <Grid size={{ xs: 6, md: 4, lg: 2 }}>
            {buyer ? (
              <Stat label="Payout" value={formatBalance(counts.payout)} testid="stat-money" />
            ) : (
              <Stat
                label="Spend"
                value={formatBalance(counts.spend)}
                hint={`payout ${formatBalance(counts.payout)}`}
                testid="stat-money"
              />
            )}
          </Grid>
          <Grid size={{ xs: 12, lg: 8 }}>
            <MainCard title={hourly ? 'Calls by hour' : 'Calls by day'}>
              <div
                style={{ width: '100%', height: 280 }}
                data-testid="dashboard-chart"
                data-empty={String(seriesIsEmpty(series))}
              >
                <CallsBars
                  data={series}
                  message={seriesIsEmpty(series) ? 'No calls in this period.' : ''}
                  messageTestId="dashboard-chart-empty"
                />
              </div>
            </MainCard>
          </Grid>
          <Grid size={{ xs: 12, lg: 4 }}>
            <MainCard title="Outcomes">
              <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} data-testid="dashboard-outcomes">
                {(detail?.by_disposition ?? []).map((d) => (
                  <Chip
                    key={d.disposition}
                    variant="light"
                    color={dispositionColor(d.disposition)}
                    label={`${d.disposition}: ${d.calls}`}
                  />
                ))}
                {(detail?.by_disposition ?? []).length === 0 && (
                  <Typography color="text.secondary">No calls in this period.</Typography>
                )}
              </Stack>
            </MainCard>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <SliceTable title="Busiest campaigns" rows={detail?.by_campaign ?? []} testid="dashboard-campaigns" />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <SliceTable title="Busiest targets" rows={detail?.by_target ?? []} testid="dashboard-targets" />
          </Grid>
          {!buyer && (
            <Grid size={12}>
              <RegionChart period={period} />
            </Grid>
          )}
          {!buyer && (
            <Grid size={12}>
              <SourcesCard period={period} />
            </Grid>
          )}
          {!buyer && (
            <Grid size={12}>
              <PoolPressureCard />
            </Grid>
          )}
          {admin && (
            <Grid size={12}>
              <MainCard content={false} title="Customers">
                <Table size="small" data-testid="dashboard-customers">
                  <TableHead>
                    <TableRow>
                      <TableCell>Customer</TableCell>
                      <TableCell align="right">Live now</TableCell>
                      <TableCell align="right">Today</TableCell>
                      <TableCell align="right">Answered today</TableCell>
                      <TableCell align="right">This month</TableCell>
                      <TableCell align="right">Answered this month</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {customers.map((c) => (
                      <TableRow key={c.id} data-testid="dashboard-customer" data-name={c.name}>
                        <TableCell>{c.name}</TableCell>
                        <TableCell align="right">{c.live_calls}</TableCell>
                        <TableCell align="right">{c.today.calls}</TableCell>
                        <TableCell align="right">{c.today.answered}</TableCell>
                        <TableCell align="right">{c.month.calls}</TableCell>
                        <TableCell align="right">{c.month.answered}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </MainCard>
            </Grid>
          )}
        </Grid>
      )}
    </>
  );
}
