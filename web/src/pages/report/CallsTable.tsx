// One page of the report's calls: the columns chosen, sorted by a header (on the server, keyset pages),
// with tick boxes for a bulk action when the page gives one.
import { useCallback, useState } from 'react';
import Checkbox from '@mui/material/Checkbox';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';

import { call } from '../../api/client';
import {
  reportsReport,
  type CallReportRow,
  type ReportColumn,
  type ReportSort,
  type SortDirection
} from '../../client';
import DispositionChip from '../../components/DispositionChip';
import { EmptyRow, ListMessages } from '../../components/ListParts';
import MainCard from '../../components/MainCard';
import usePagedList, { type PageQuery } from '../../hooks/usePagedList';
import { RATE_PLACES, formatBalance } from '../../utils/balance';
import { formatDateTime, formatSeconds, timeColumn } from '../../utils/time';
import { originLabel } from '../../utils/origin';
import { countLabel } from '../../utils/report';
import { COLUMNS } from '../../utils/reportView';

// Costs (and what is computed from them) may hold fractions of a cent: shown with the stored places,
// the same in every row, so that a column adds up (utils/balance.ts).
const money = (call: CallReportRow, value: string | null | undefined, places?: number) =>
  value === null || value === undefined || !call.ended_at ? '—' : formatBalance(value, undefined, places);

function cell(key: ReportColumn, c: CallReportRow, timeZone: string | null | undefined) {
  switch (key) {
    case 'started_at':
      return formatDateTime(c.started_at, timeZone);
    case 'caller':
      return c.caller;
    case 'origin':
      return originLabel({ country: c.caller_country, region: c.caller_region });
    case 'did':
      return c.did;
    case 'customer':
      return c.customer_name ?? '—';
    case 'campaign':
      return c.campaign_name ?? '—';
    case 'target':
      return c.target_name ?? '—';
    case 'buyer':
      return c.buyer_name ?? '—';
    case 'disposition':
      return <DispositionChip call={c} />;
    case 'duration':
      return c.ended_at ? formatSeconds(c.duration) : '—';
    case 'billsec':
      return c.ended_at ? formatSeconds(c.billsec) : '—';
    case 'hangup_by':
      return c.hangup_by ?? '—';
    case 'revenue':
      return money(c, c.payout);
    case 'source':
      return c.source_name ?? '—';
    case 'cost':
      return money(c, c.cost, RATE_PLACES);
    case 'publisher_payout':
      return money(c, c.publisher_payout, RATE_PLACES);
    case 'profit':
      return money(c, c.profit, RATE_PLACES);
  }
}

interface Props {
  query: Record<string, string>;
  sort: ReportSort;
  direction: SortDirection;
  columns: ReportColumn[];
  timeZone: string | null | undefined;
  onSort: (sort: ReportSort) => void;
  onOpen: (call: CallReportRow) => void;
  /** The ticked calls and how to change them; without it, no tick boxes. */
  selection?: { selected: CallReportRow[]; onChange: (next: CallReportRow[]) => void };
}

/** Mounted again (a `key`) for another query or sort, which it keeps: it starts from the first page. */
export default function CallsTable({ query, sort, direction, columns, timeZone, onSort, onOpen, selection }: Props) {
  const [asked] = useState({ ...query, sort, direction });
  const fetchPage = useCallback((page: PageQuery) => call(reportsReport({ query: { ...asked, ...page } })), [asked]);
  const { rows, total, estimated, loading, error, setError, pagination } = usePagedList(fetchPage, {
    perpage: 25,
    failure: 'The report could not be loaded.'
  });
  const shown = COLUMNS.filter((c) => columns.includes(c.key));
  const ticked = (c: CallReportRow) => Boolean(selection?.selected.some((s) => s.id === c.id));
  const tick = (c: CallReportRow, on: boolean) =>
    selection?.onChange(on ? [...selection.selected, c] : selection.selected.filter((s) => s.id !== c.id));
  return (
    <MainCard content={false} title={`Calls (${countLabel(total, estimated)})`} sx={{ minWidth: 0 }}>
      {loading && <LinearProgress sx={{ borderRadius: 0 }} />}
      <ListMessages name="report" error={error} onCloseError={() => setError('')} />
      <TableContainer sx={{ overflowX: 'auto' }}>
        <Table size="small" data-testid="report-table">
          <TableHead>
            <TableRow>
              {selection && <TableCell padding="checkbox" />}
              {shown.map((c) => {
                // Times are the person's own zone's, which the heading names (utils/time.ts).
                const heading = c.key === 'started_at' ? timeColumn(c.label, timeZone) : c.label;
                return (
                  <TableCell key={c.key} align={c.right ? 'right' : 'left'} data-testid={`report-col-${c.key}`}>
                    {c.sort ? (
                      <TableSortLabel
                        active={sort === c.sort}
                        direction={sort === c.sort ? direction : 'desc'}
                        onClick={() => c.sort && onSort(c.sort)}
                        data-testid={`report-sort-${c.sort}`}
                      >
                        {heading}
                      </TableSortLabel>
                    ) : (
                      heading
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((c) => (
              <TableRow
                hover
                key={c.id}
                onClick={() => onOpen(c)}
                sx={{ cursor: 'pointer' }}
                data-testid="report-row"
                data-id={c.id}
                data-caller={c.caller}
              >
                {selection && (
                  // A tick is not a click on the row (which opens the call).
                  <TableCell padding="checkbox" onClick={(e) => e.stopPropagation()}>
                    <Checkbox
                      size="small"
                      checked={ticked(c)}
                      onChange={(e) => tick(c, e.target.checked)}
                      slotProps={{ input: { 'aria-label': `Select the call from ${c.caller}` } }}
                      data-testid="report-select"
                    />
                  </TableCell>
                )}
                {shown.map((col) => (
                  <TableCell
                    key={col.key}
                    align={col.right ? 'right' : 'left'}
                    sx={col.key === 'started_at' ? { whiteSpace: 'nowrap' } : undefined}
                    data-testid={col.key === 'origin' ? 'report-origin' : undefined}
                  >
                    {cell(col.key, c, timeZone)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
            {!loading && rows.length === 0 && !error && (
              <EmptyRow colSpan={shown.length + (selection ? 1 : 0)} text="No calls match." />
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination {...pagination} />
    </MainCard>
  );
}
