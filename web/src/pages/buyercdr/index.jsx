// The buyer's report: the calls sent to its targets, with what it owes for each (never the
// customer's cost), and the recording when the campaign records.
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
import { SearchOutlined } from '@ant-design/icons';

import MainCard from '../../components/MainCard';
import RecordingPlayer from '../../components/RecordingPlayer';
import { PageTitle } from '../../components/PagePlaceholder';
import { fetchBuyerReport } from '../../api/reports';
import { formatBalance } from '../../utils/balance';
import { formatSeconds } from '../../utils/clock';
import { DISPOSITIONS, dispositionColor, filterProblem, formatDateTime, reportParams } from '../../utils/report';
import { getStoredUser } from '../../utils/storage';

const emptyBuyerFilters = () => ({ fromDate: '', toDate: '', disposition: '', caller_number: '' });

export default function BuyerCdrPage() {
  const user = getStoredUser();
  const [draft, setDraft] = useState(emptyBuyerFilters);
  const [filters, setFilters] = useState(emptyBuyerFilters);
  const [page, setPage] = useState(0);
  const [perpage, setPerpage] = useState(25);
  const [rows, setRows] = useState([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');

  const load = useCallback(async () => {
    setLoading(true);
    setError('');
    try {
      const data = await fetchBuyerReport({ page: page + 1, perpage, ...reportParams(filters) });
      setRows(Array.isArray(data?.data) ? data.data : []);
      setTotal(Number(data?.total ?? 0));
    } catch (err) {
      setError(err?.message || 'Your calls could not be loaded.');
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

  const field = (name, label, extra = {}) => (
    <TextField
      size="small"
      fullWidth
      label={label}
      value={draft[name]}
      onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))}
      slotProps={{ htmlInput: { 'data-testid': `buyercdr-${name}` }, inputLabel: { shrink: true } }}
      {...extra}
    />
  );

  return (
    <>
      <PageTitle title="Buyer Report" />
      <MainCard sx={{ mb: 2 }}>
        <form onSubmit={apply}>
          <Grid container spacing={2} sx={{ alignItems: 'center' }}>
            <Grid size={{ xs: 6, md: 2.5 }}>{field('fromDate', 'From', { type: 'date' })}</Grid>
            <Grid size={{ xs: 6, md: 2.5 }}>{field('toDate', 'To', { type: 'date' })}</Grid>
            <Grid size={{ xs: 12, md: 2.5 }}>
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
            <Grid size={{ xs: 12, md: 2.5 }}>{field('caller_number', 'Caller')}</Grid>
            <Grid size={{ xs: 12, md: 2 }}>
              <Button type="submit" variant="contained" fullWidth startIcon={<SearchOutlined />} data-testid="buyercdr-search">
                Search
              </Button>
            </Grid>
          </Grid>
        </form>
      </MainCard>
      <MainCard content={false} title={`Calls (${total})`}>
        {loading && <LinearProgress sx={{ borderRadius: 0 }} />}
        {error && (
          <Alert severity="error" sx={{ m: 2 }} onClose={() => setError('')} data-testid="buyercdr-error">
            {error}
          </Alert>
        )}
        <TableContainer>
          <Table size="small" data-testid="buyercdr-table">
            <TableHead>
              <TableRow>
                <TableCell>Started</TableCell>
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
                    <Chip size="small" variant="light" color={dispositionColor(call.disposition)} label={call.disposition} />
                  </TableCell>
                  <TableCell align="right">{formatSeconds(call.talk_seconds)}</TableCell>
                  <TableCell align="right">{formatBalance(call.payout)}</TableCell>
                  <TableCell>{call.recording ? <RecordingPlayer callId={call.id} /> : '—'}</TableCell>
                </TableRow>
              ))}
              {!loading && rows.length === 0 && !error && (
                <TableRow>
                  <TableCell colSpan={8} align="center" sx={{ color: 'text.secondary' }}>
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
    </>
  );
}
