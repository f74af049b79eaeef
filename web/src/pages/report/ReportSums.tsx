// The report's sums: the totals of every filtered call (not just the page), and the calls grouped by
// a dimension with the same totals. Exact values ride in `data-value` for tests and copy-paste.
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';

import { call } from '../../api/client';
import {
  reportsGroups,
  reportsTotals,
  type ReportDimension,
  type ReportGroups,
  type ReportMeasures
} from '../../client';
import MainCard from '../../components/MainCard';
import { failureMessage } from '../../hooks/apiFailure';
import { formatBalance } from '../../utils/balance';

type Query = Record<string, string>;
const MEASURES = [
  ['calls', 'Calls'],
  ['answered', 'Answered'],
  ['converted', 'Converted'],
  ['revenue', 'Revenue'],
  ['cost', 'Cost'],
  ['profit', 'Profit']
] as const;
const MONEY = new Set(['revenue', 'cost', 'profit']);

const shown = (key: string, value: number | string | null | undefined) =>
  value === null || value === undefined
    ? '—'
    : MONEY.has(key)
      ? formatBalance(value)
      : Number(value).toLocaleString('en-US');

/** The answer of `load()`, loaded once (the component is mounted again for another query). */
function useLoaded<T>(load: () => Promise<T>, failure: string) {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  useEffect(() => {
    let alive = true;
    load()
      .then((data) => alive && setState({ data }))
      .catch((err: unknown) => alive && setState({ error: failureMessage(err, failure) }));
    return () => {
      alive = false;
    };
  }, [load, failure]);
  return state;
}

export function TotalsBar({ query }: { query: Query }) {
  const [load] = useState(() => () => call(reportsTotals({ query })));
  const { data, error } = useLoaded<ReportMeasures>(load, 'The totals could not be loaded.');
  if (error) return <Alert severity="warning">{error}</Alert>;
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 3, mb: 2, minHeight: 44 }} data-testid="report-totals">
      {MEASURES.map(([key, label]) => (
        <div key={key}>
          <Typography variant="caption" color="text.secondary">
            {label}
          </Typography>
          <Typography variant="h6" data-testid={`report-total-${key}`} data-value={data ? String(data[key] ?? '') : ''}>
            {data ? shown(key, data[key]) : '…'}
          </Typography>
        </div>
      ))}
    </Stack>
  );
}

export function GroupsTable({ query, by }: { query: Query; by: ReportDimension }) {
  const [load] = useState(() => () => call(reportsGroups({ query: { ...query, by } })));
  const { data, error } = useLoaded<ReportGroups>(load, 'The groups could not be loaded.');
  const row = (name: string, m: ReportMeasures, testid: string, key?: string | null) => (
    <TableRow key={testid + (key ?? '')} data-testid={testid} data-key={key ?? ''}>
      <TableCell>{name}</TableCell>
      {MEASURES.map(([k]) => (
        <TableCell key={k} align="right" data-measure={k} data-value={String(m[k] ?? '')}>
          {shown(k, m[k])}
        </TableCell>
      ))}
    </TableRow>
  );
  return (
    <MainCard content={false} sx={{ mb: 2 }} title={data ? `By ${data.label.toLowerCase()}` : 'Groups'}>
      {!data && !error && <LinearProgress sx={{ borderRadius: 0 }} />}
      {error && <Alert severity="error">{error}</Alert>}
      {data && (
        <TableContainer>
          <Table size="small" data-testid="report-groups">
            <TableHead>
              <TableRow>
                <TableCell>{data.label}</TableCell>
                {MEASURES.map(([k, label]) => (
                  <TableCell key={k} align="right">
                    {label}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {data.groups.map((g) => row(g.name, g, 'report-group', g.key))}
              {row(data.more ? 'Total (all groups)' : 'Total', data.totals, 'report-group-totals')}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </MainCard>
  );
}
