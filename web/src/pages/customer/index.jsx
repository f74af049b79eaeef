// Users (admin). For now a simple list with an Impersonate action per non-admin row.
import { useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import { UserSwitchOutlined } from '@ant-design/icons';

import { EmptyRow, ListMessages, SearchBox } from '../../components/ListParts';
import MainCard from '../../components/MainCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { fetchUserDetails } from '../../api/users';
import usePagedList from '../../hooks/usePagedList';
import { impersonate } from '../../api/auth';
import { formatBalance } from '../../utils/balance';
import { statusColor } from '../../utils/status';
import { ROLE_ADMIN } from '../../config';

export default function CustomerPage() {
  const { rows, loading, error, setError, search, setSearch, pagination } = usePagedList(fetchUserDetails, {
    failure: 'Users could not be loaded.'
  });
  const [busyId, setBusyId] = useState(null);

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
          <SearchBox label="Search users" value={search} onChange={setSearch} />
        }
      >
        {loading && <LinearProgress sx={{ borderRadius: 0 }} />}
        <ListMessages name="customer" error={error} />
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
              {!loading && rows.length === 0 && !error && <EmptyRow colSpan={8} text="No users found." />}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination {...pagination} />
      </MainCard>
    </>
  );
}
