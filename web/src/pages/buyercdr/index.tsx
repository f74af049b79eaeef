// The buyer's report: the calls sent to its targets, with what it owes for each (never the
// customer's cost), and the recording when the campaign records.
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';

import CallFilters, { type FilterQuery } from '../../components/CallFilters';
import { EmptyRow, ListMessages } from '../../components/ListParts';
import MainCard from '../../components/MainCard';
import RecordingPlayer from '../../components/RecordingPlayer';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { buyersReport, type BuyerReportFilter } from '../../client';
import usePagedList from '../../hooks/usePagedList';
import { formatBalance } from '../../utils/balance';
import { formatSeconds } from '../../utils/time';
import { countLabel } from '../../utils/report';
import { formatDateTime, timeColumn } from '../../utils/time';
import DispositionChip from '../../components/DispositionChip';
import { getStoredUser } from '../../utils/storage';

/** The signed-in buyer's calls (filters in the body, as the spec's buyer report takes them). */
const fetchBuyerReport = ({ page, perpage, after, ...rest }: FilterQuery) => {
  // `params` is a list's search box: not one of this report's filters.
  const filters = Object.fromEntries(Object.entries(rest).filter(([key]) => key !== 'params'));
  return call(
    buyersReport({
      query: after ? { page, perpage, after } : { page, perpage },
      // The filters as typed (text); the server parses and checks them (422).
      body: filters as BuyerReportFilter
    })
  );
};

const FILTERS: [string, string][] = [
  ['fromDate', 'From'],
  ['toDate', 'To'],
  ['disposition', 'Disposition'],
  ['caller_number', 'Caller']
];

export default function BuyerCdrPage() {
  const user = getStoredUser();
  const { rows, total, estimated, loading, error, setError, filterBy, pagination } = usePagedList(fetchBuyerReport, {
    perpage: 25,
    failure: 'Your calls could not be loaded.'
  });

  return (
    <>
      <PageTitle title="Buyer Report" />
      <CallFilters
        name="buyercdr"
        fields={FILTERS}
        size={{ xs: 12, sm: 6, md: 2.4 }}
        onApply={filterBy}
        onProblem={setError}
      />
      <MainCard content={false} title={`Calls (${countLabel(total, estimated)})`}>
        {loading && <LinearProgress sx={{ borderRadius: 0 }} />}
        <ListMessages name="buyercdr" error={error} onCloseError={() => setError('')} />
        <TableContainer>
          <Table size="small" data-testid="buyercdr-table">
            <TableHead>
              <TableRow>
                <TableCell>{timeColumn('Started', user?.timezone)}</TableCell>
                <TableCell>Caller</TableCell>
                <TableCell>Tracking number</TableCell>
                <TableCell>Target</TableCell>
                <TableCell>Disposition</TableCell>
                <TableCell align="right">Talk</TableCell>
                <TableCell align="right">Payout</TableCell>
                <TableCell sx={{ width: 320 }}>Recording</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((call) => (
                <TableRow hover key={call.id} data-testid="buyercdr-row" data-caller={call.caller}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(call.started_at, user?.timezone)}</TableCell>
                  <TableCell>{call.caller}</TableCell>
                  <TableCell>{call.did}</TableCell>
                  <TableCell>{call.target_name ?? '—'}</TableCell>
                  <TableCell>
                    <DispositionChip call={call} />
                  </TableCell>
                  <TableCell align="right">{call.ended_at ? formatSeconds(call.talk_seconds) : '—'}</TableCell>
                  <TableCell align="right">{formatBalance(call.payout)}</TableCell>
                  <TableCell>{call.recording ? <RecordingPlayer callId={call.id} /> : '—'}</TableCell>
                </TableRow>
              ))}
              {!loading && rows.length === 0 && !error && <EmptyRow colSpan={8} text="No calls match." />}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination {...pagination} />
      </MainCard>
    </>
  );
}
