// The call report: every call of the signed-in customer (the admin: all), filtered as the spec
// says, newest first; a row opens the call with its routing trail; Export downloads the CSV.
import { useCallback, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';

import MainCard from '../../components/MainCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { downloadReport, fetchReport } from '../../api/reports';
import { formatBalance } from '../../utils/balance';
import { formatSeconds } from '../../utils/clock';
import { DISPOSITIONS, dispositionColor, emptyFilters, filterProblem, formatDateTime, reportParams } from '../../utils/report';
import { isAdmin } from '../../utils/roles';
import { getStoredUser } from '../../utils/storage';
import CallDetail from './CallDetail';

const TEXT_FILTERS = [
  ['caller_number', 'Caller'],
  ['did_number', 'Tracking number'],
  ['target_number', 'Target number'],
  ['campaign_name', 'Campaign']
];

export default function ReportPage() {
  const user = getStoredUser();
  const admin = isAdmin(user);
  const [draft, setDraft] = useState(emptyFilters);
  const [filters, setFilters] = useState(emptyFilters);
  const [page, setPage] = useState(0);
  const [perpage, setPerpage] = useState(25);
  const [rows, setRows] = useState([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');
  const [open, setOpen] = useState(null);
  const [exporting, setExporting] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    setError('');
    try {
      const data = await fetchReport({ page: page + 1, perpage, ...reportParams(filters) });
      setRows(Array.isArray(data?.data) ? data.data : []);
      setTotal(Number(data?.total ?? 0));
    } catch (err) {
      setError(err?.message || 'The report could not be loaded.');
      setRows([]);
      setTotal(0);
    } finally {
      setLoading(false);
    }
  }, [page, perpage, filters]);

  useEffect(() => {
    load();
  }, [load]);

  const apply = (event) => {
    event.preventDefault();
    const problem = filterProblem(draft);
    if (problem) {
      setError(problem);
      return;
    }
    setPage(0);
    setFilters({ ...draft });
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const blob = await downloadReport(reportParams(filters));
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = 'call-report.csv';
      link.click();
      URL.revokeObjectURL(url);
    } catch (err) {
      setError(err?.message || 'The report could not be exported.');
    } finally {
      setExporting(false);
    }
  };

  const field = (name, label, extra = {}) => (
    <TextField
      size="small"
      fullWidth
      label={label}
      value={draft[name]}
      onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))}
      slotProps={{ htmlInput: { 'data-testid': `report-${name}` }, inputLabel: { shrink: true } }}
      {...extra}
    />
  );

  return (
    <>
      <PageTitle title="Report">
        <Button variant="outlined" startIcon={<DownloadOutlined />} onClick={exportCsv} disabled={exporting || total === 0} data-testid="report-export">
          Export CSV
        </Button>
      </PageTitle>
      <MainCard sx={{ mb: 2 }}>
        <form onSubmit={apply}>
          <Grid container spacing={2} sx={{ alignItems: 'center' }}>
            <Grid size={{ xs: 6, md: 3, lg: 1.5 }}>{field('fromDate', 'From', { type: 'date' })}</Grid>
            <Grid size={{ xs: 6, md: 3, lg: 1.5 }}>{field('toDate', 'To', { type: 'date' })}</Grid>
            <Grid size={{ xs: 12, md: 3, lg: 1.5 }}>
              {field('disposition', 'Disposition', {
                select: true,
                children: [
                  <MenuItem key="" value="">
                    All
                  </MenuItem>,
                  ...DISPOSITIONS.map((d) => (
                    <MenuItem key={d} value={d}>
                      {d}
                    </MenuItem>
                  ))
                ],
                slotProps: { select: { displayEmpty: true }, inputLabel: { shrink: true } }
              })}
            </Grid>
            {TEXT_FILTERS.map(([name, label]) => (
              <Grid key={name} size={{ xs: 6, md: 3, lg: 1.5 }}>
                {field(name, label)}
              </Grid>
            ))}
            <Grid size={{ xs: 12, md: 3, lg: 1.5 }}>
              <Button type="submit" variant="contained" fullWidth startIcon={<SearchOutlined />} data-testid="report-search">
                Search
              </Button>
            </Grid>
          </Grid>
        </form>
      </MainCard>
      <MainCard content={false} title={`Calls (${total})`}>
        {loading && <LinearProgress sx={{ borderRadius: 0 }} />}
        {error && (
          <Alert severity="error" sx={{ m: 2 }} onClose={() => setError('')} data-testid="report-error">
            {error}
          </Alert>
        )}
        <TableContainer>
          <Table size="small" data-testid="report-table">
            <TableHead>
              <TableRow>
                <TableCell>Started</TableCell>
                <TableCell>Caller</TableCell>
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
                <TableRow hover key={call.id} onClick={() => setOpen(call)} sx={{ cursor: 'pointer' }} data-testid="report-row" data-caller={call.caller}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(call.started_at, user?.timezone)}</TableCell>
                  <TableCell>{call.caller}</TableCell>
                  <TableCell>{call.did}</TableCell>
                  {admin && <TableCell>{call.customer_name ?? '—'}</TableCell>}
                  <TableCell>{call.campaign_name ?? '—'}</TableCell>
                  <TableCell>{call.target_name ?? '—'}</TableCell>
                  <TableCell>
                    <Chip size="small" variant="light" color={dispositionColor(call.disposition)} label={call.disposition} />
                  </TableCell>
                  <TableCell align="right">{formatSeconds(call.billsec)}</TableCell>
                  <TableCell>{call.hangup_by ?? '—'}</TableCell>
                  <TableCell align="right">{call.cost === null ? '—' : formatBalance(call.cost)}</TableCell>
                </TableRow>
              ))}
              {!loading && rows.length === 0 && !error && (
                <TableRow>
                  <TableCell colSpan={admin ? 10 : 9} align="center" sx={{ color: 'text.secondary' }}>
                    No calls match.
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={total}
          page={total === 0 ? 0 : Math.min(page, Math.max(0, Math.ceil(total / perpage) - 1))}
          onPageChange={(_, p) => setPage(p)}
          rowsPerPage={perpage}
          onRowsPerPageChange={(e) => {
            setPerpage(Number(e.target.value));
            setPage(0);
          }}
          rowsPerPageOptions={[10, 25, 50, 100]}
        />
      </MainCard>
      <CallDetail call={open} timeZone={user?.timezone} onClose={() => setOpen(null)} />
    </>
  );
}
