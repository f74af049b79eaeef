// The dashboard's calls by traffic source (issue 33, docs/reports.md): per source the period's calls,
// answered, converted, revenue, cost, publisher payout and profit, with the total; a "Sources" link
// opens the screen where sources are kept (admins and customers: a buyer has none).
import { useEffect, useState } from 'react';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';

import { EmptyRow } from '../../components/ListParts';
import MainCard from '../../components/MainCard';
import { call } from '../../api/client';
import { dashboardCallSources, type CallSources, type Period, type SourceSlice } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import { formatBalance } from '../../utils/balance';

const MONEY: readonly (readonly [keyof SourceSlice & string, string])[] = [
  ['revenue', 'Revenue'],
  ['cost', 'Cost'],
  ['publisher_payout', 'Publisher payout'],
  ['profit', 'Profit']
];

function SourceCells({ row }: { row: SourceSlice }) {
  return (
    <>
      <TableCell align="right">{row.calls}</TableCell>
      <TableCell align="right">{row.answered}</TableCell>
      <TableCell align="right">{row.converted}</TableCell>
      {MONEY.map(([key]) => (
        <TableCell key={key} align="right" data-testid={`source-slice-${key}`}>
          {formatBalance(row[key] as string)}
        </TableCell>
      ))}
    </>
  );
}

export default function SourcesCard({ period }: { period: Period }) {
  const [sources, setSources] = useState<CallSources | null>(null);
  const [failure, setFailure] = useState<{ period: Period; text: string } | null>(null);
  const error = failure?.period === period ? failure.text : '';

  useEffect(() => {
    let cancelled = false;
    call(dashboardCallSources({ query: { type: period } }))
      .then((s) => !cancelled && setSources(s))
      .catch(
        (err: unknown) =>
          !cancelled && setFailure({ period, text: failureMessage(err, 'Calls by source could not be loaded.') })
      );
    return () => {
      cancelled = true;
    };
  }, [period]);

  const rows = sources?.by_source ?? [];
  return (
    <MainCard
      content={false}
      title="Calls by source"
      secondary={
        <Link component={RouterLink} to="/source" variant="body2" data-testid="dashboard-sources-link">
          Sources
        </Link>
      }
    >
      {error && (
        <Typography color="error" sx={{ p: 2 }} data-testid="dashboard-sources-error">
          {error}
        </Typography>
      )}
      <Table size="small" data-testid="dashboard-sources">
        <TableHead>
          <TableRow>
            <TableCell>Source</TableCell>
            <TableCell align="right">Calls</TableCell>
            <TableCell align="right">Answered</TableCell>
            <TableCell align="right">Converted</TableCell>
            {MONEY.map(([key, label]) => (
              <TableCell key={key} align="right">
                {label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={`${row.id}`} data-testid="dashboard-source" data-name={row.name}>
              <TableCell>{row.name}</TableCell>
              <SourceCells row={row} />
            </TableRow>
          ))}
          {rows.length === 0 && <EmptyRow colSpan={8} text="No calls in this period." />}
          {sources && rows.length > 0 && (
            <TableRow data-testid="dashboard-source-total">
              <TableCell>
                <strong>{sources.total.name}</strong>
              </TableCell>
              <SourceCells row={sources.total} />
            </TableRow>
          )}
        </TableBody>
      </Table>
    </MainCard>
  );
}
