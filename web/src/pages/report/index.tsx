// The call report: every call of the signed-in customer (the admin: all), filtered as the spec
// says, newest first; a row opens the call with its routing trail; Export downloads the CSV.
import { useState } from 'react';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import { DownloadOutlined } from '@ant-design/icons';

import CallFilters, { type FilterQuery } from '../../components/CallFilters';
import { EmptyRow, ListMessages } from '../../components/ListParts';
import MainCard from '../../components/MainCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import {
  reportsReport,
  reportsSave,
  type CallReportRow,
  type ReportsReportData,
  type ReportsSaveData
} from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import usePagedList from '../../hooks/usePagedList';
import { formatBalance } from '../../utils/balance';
import { saveBlob } from '../../utils/download';
import { formatSeconds } from '../../utils/clock';
import { countLabel, formatDateTime } from '../../utils/report';
import DispositionChip from '../../components/DispositionChip';
import { isAdmin } from '../../utils/roles';
import { getStoredUser } from '../../utils/storage';
import CallDetail from './CallDetail';
import { originLabel } from '../../utils/origin';

// The filters as typed (text); the server parses and checks them (422), as it did the query string.
const fetchReport = (query: FilterQuery) => call(reportsReport({ query: query as ReportsReportData['query'] }));

const FILTERS: [string, string][] = [
  ['fromDate', 'From'],
  ['toDate', 'To'],
  ['disposition', 'Disposition'],
  ['caller_number', 'Caller'],
  ['caller_country', 'Caller country'],
  ['caller_region', 'Caller region'],
  ['did_number', 'Tracking number'],
  ['target_number', 'Target number'],
  ['campaign_name', 'Campaign'],
  ['words', 'Words said'],
  ['tag', 'Tag']
];

export default function ReportPage() {
  const user = getStoredUser();
  const admin = isAdmin(user);
  const { rows, total, estimated, loading, error, setError, filters, filterBy, pagination } = usePagedList(
    fetchReport,
    {
      perpage: 25,
      failure: 'The report could not be loaded.'
    }
  );
  const [open, setOpen] = useState<CallReportRow | null>(null);
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    setExporting(true);
    try {
      // The same calls as a CSV file (all pages). Asked as a blob: its answer is the file's Blob.
      const { data } = await reportsSave({
        query: filters as ReportsSaveData['query'],
        responseType: 'blob',
        headers: { Accept: 'text/csv' }
      });
      saveBlob(new Blob([data], { type: 'text/csv' }), 'call-report.csv');
    } catch (err) {
      setError(failureMessage(err, 'The report could not be exported.'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <PageTitle title="Report">
        <Button
          variant="outlined"
          startIcon={<DownloadOutlined />}
          onClick={exportCsv}
          disabled={exporting || total === 0}
          data-testid="report-export"
        >
          Export CSV
        </Button>
      </PageTitle>
      <CallFilters
        name="report"
        fields={FILTERS}
        size={{ xs: 6, md: 3, lg: 4 / 3 }}
        dateSize={{ xs: 6, md: 3, lg: 2 }}
        onApply={filterBy}
        onProblem={setError}
      />
      <MainCard content={false} title={`Calls (${countLabel(total, estimated)})`}>
        {loading && <LinearProgress sx={{ borderRadius: 0 }} />}
        <ListMessages name="report" error={error} onCloseError={() => setError('')} />
        <TableContainer>
          <Table size="small" data-testid="report-table">
            <TableHead>
              <TableRow>
                <TableCell>Started</TableCell>
                <TableCell>Caller</TableCell>
                <TableCell>From</TableCell>
                <TableCell>Tracking number</TableCell>
                {admin && <TableCell>Customer</TableCell>}
                <TableCell>Campaign</TableCell>
                <TableCell>Target</TableCell>
                <TableCell>Disposition</TableCell>
                <TableCell align="right">Billed</TableCell>
                <TableCell>Hung up by</TableCell>
                <TableCell align="right">Cost</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((call) => (
                <TableRow
                  hover
                  key={call.id}
                  onClick={() => setOpen(call)}
                  sx={{ cursor: 'pointer' }}
                  data-testid="report-row"
                  data-caller={call.caller}
                >
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(call.started_at, user?.timezone)}</TableCell>
                  <TableCell>{call.caller}</TableCell>
                  <TableCell data-testid="report-origin">
                    {originLabel({ country: call.caller_country, region: call.caller_region })}
                  </TableCell>
                  <TableCell>{call.did}</TableCell>
                  {admin && <TableCell>{call.customer_name ?? '—'}</TableCell>}
                  <TableCell>{call.campaign_name ?? '—'}</TableCell>
                  <TableCell>{call.target_name ?? '—'}</TableCell>
                  <TableCell>
                    <DispositionChip call={call} />
                  </TableCell>
                  <TableCell align="right">{call.ended_at ? formatSeconds(call.billsec) : '—'}</TableCell>
                  <TableCell>{call.hangup_by ?? '—'}</TableCell>
                  <TableCell align="right">
                    {call.cost === null || !call.ended_at ? '—' : formatBalance(call.cost)}
                  </TableCell>
                </TableRow>
              ))}
              {!loading && rows.length === 0 && !error && <EmptyRow colSpan={admin ? 11 : 10} text="No calls match." />}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination {...pagination} />
      </MainCard>
      <CallDetail call={open} timeZone={user?.timezone} onClose={() => setOpen(null)} />
    </>
  );
}
