// Users (admin). For now a simple list with an Impersonate action per non-admin row.
import { useCallback, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { SearchOutlined, UserSwitchOutlined } from '@ant-design/icons';

import MainCard from '../../components/MainCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { fetchUserDetails } from '../../api/users';
import { impersonate } from '../../api/auth';
import { formatBalance } from '../../utils/balance';
import { statusColor } from '../../utils/status';
import { ROLE_ADMIN } from '../../config';

export default function CustomerPage() {
  const [page, setPage] = useState(0);
  const [perpage, setPerpage] = useState(10);
  const [search, setSearch] = useState('');
  const [params, setParams] = useState('');
  const [rows, setRows] = useState([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');
  const [busyId, setBusyId] = useState(null);

  useEffect(() => {
    const t = setTimeout(() => {
      setPage(0);
      setParams(search.trim());
    }, 300);
    return () => clearTimeout(t);
  }, [search]);

  const load = useCallback(async () => {
    setLoading(true);
    setError('');
    try {
      const data = await fetchUserDetails({ page: page + 1, perpage, params });
      setRows(Array.isArray(data?.data) ? data.data : []);
      setTotal(Number(data?.total ?? 0));
    } catch (err) {
      setError(err?.message || 'Users could not be loaded.');
      setRows([]);
      setTotal(0);
    } finally {
      setLoading(false);
    }
  }, [page, perpage, params]);

  useEffect(() => {
    load();
  }, [load]);

  const startImpersonation = async (row) => {
    setBusyId(row.id);
    setError('');
    try {
      await impersonate(row.id);
    } catch (err) {
      setError(err?.message || 'Impersonation failed.');
      setBusyId(null);
    }
  };

  return (
    <>
      <PageTitle title="User" />
      <MainCard
        content={false}
        title="Users"
        secondary={
          <TextField
            size="small"
            placeholder="Search users"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchOutlined /></InputAdornment> }, htmlInput: { 'aria-label': 'Search users' } }}
          />
        }
      >
        {loading && <LinearProgress sx={{ borderRadius: 0 }} />}
        {error && (
          <Alert severity="error" sx={{ m: 2 }} data-testid="customer-error">
            {error}
          </Alert>
        )}
        <TableContainer>
          <Table data-testid="customer-table">
            <TableHead>
              <TableRow>
                <TableCell>ID</TableCell>
                <TableCell>Name</TableCell>
                <TableCell>Email</TableCell>
                <TableCell>Role</TableCell>
                <TableCell>Status</TableCell>
                <TableCell align="right">Balance</TableCell>
                <TableCell>Timezone</TableCell>
                <TableCell align="right">Action</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow hover key={row.id} data-testid="customer-row" data-name={row.name}>
                  <TableCell>{row.id}</TableCell>
                  <TableCell>{row.name}</TableCell>
                  <TableCell>{row.email}</TableCell>
                  <TableCell>{row.role_name ?? row.role}</TableCell>
                  <TableCell>
                    <Chip size="small" variant="light" color={statusColor(row.status)} label={String(row.status ?? '—')} />
                  </TableCell>
                  <TableCell align="right">{formatBalance(row.balance)}</TableCell>
                  <TableCell>{row.timezone}</TableCell>
                  <TableCell align="right">
                    {Number(row.role) !== ROLE_ADMIN && (
                      <Button
                        size="small"
                        variant="dashed"
                        color="primary"
                        startIcon={<UserSwitchOutlined />}
                        onClick={() => startImpersonation(row)}
                        disabled={busyId !== null}
                        data-testid="impersonate-button"
                      >
                        Impersonate
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
              {!loading && rows.length === 0 && !error && (
                <TableRow>
                  <TableCell colSpan={8} align="center" sx={{ color: 'text.secondary' }}>
                    No users found.
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
          rowsPerPageOptions={[10, 25, 50]}
        />
      </MainCard>
    </>
  );
}
