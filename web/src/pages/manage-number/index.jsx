// Numbers (admin): the pool and every customer's tracking numbers. Add numbers to the pool, give
// pool numbers to a customer (setup fees charged), change fees and status, release to the pool.
import { useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { EditOutlined, PlusOutlined, RollbackOutlined, UserAddOutlined } from '@ant-design/icons';

import ConfirmDialog from '../../components/ConfirmDialog';
import { EmptyRow, ListMessages, SearchBox } from '../../components/ListParts';
import MainCard from '../../components/MainCard';
import NumberPoolDialog from '../../components/NumberPoolDialog';
import { PageTitle } from '../../components/PagePlaceholder';
import { giveNumbers, numbers, releaseNumbers } from '../../api/numbers';
import useEntityActions from '../../hooks/useEntityActions';
import usePagedList from '../../hooks/usePagedList';
import { formatBalance } from '../../utils/balance';
import { NUMBER_STATUSES } from '../../utils/numberForm';
import NumberDialog from './NumberDialog';

export default function ManageNumberPage() {
  const { rows, loading, error, setError, search, setSearch, filters, filterBy, reload, pagination } = usePagedList(numbers.list, {
    failure: 'Numbers could not be loaded.'
  });
  const { notice, setNotice, busy, editing, setEditing, deleting: releasing, setDeleting: setReleasing, act, saved } = useEntityActions(numbers, 'Number', {
    reload,
    setError
  });
  const [giving, setGiving] = useState(false);

  const setStatus = (row, status) =>
    act(async () => {
      await numbers.setStatus(row.id, status);
      return `Number ${row.number} is now ${status}.`;
    }, 'The status could not be changed.');

  const release = () => {
    const row = releasing;
    setReleasing(null);
    act(async () => (await releaseNumbers([row.id])).message, 'The number could not be released.');
  };

  return (
    <>
      <PageTitle title="Number">
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" startIcon={<UserAddOutlined />} onClick={() => setGiving(true)} data-testid="number-give">
            Give numbers
          </Button>
          <Button variant="contained" startIcon={<PlusOutlined />} onClick={() => setEditing({})} data-testid="number-add">
            Add number
          </Button>
        </Stack>
      </PageTitle>
      <MainCard
        content={false}
        title="Tracking numbers"
        secondary={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              select
              size="small"
              label="Status"
              value={filters.status ?? ''}
              onChange={(e) => filterBy(e.target.value ? { status: e.target.value } : {})}
              sx={{ minWidth: 130 }}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">All</MenuItem>
              {NUMBER_STATUSES.map((s) => (
                <MenuItem key={s} value={s}>
                  {s}
                </MenuItem>
              ))}
            </TextField>
            <SearchBox label="Search numbers" value={search} onChange={setSearch} />
          </Stack>
        }
      >
        {loading && <LinearProgress sx={{ borderRadius: 0 }} />}
        <ListMessages name="number" error={error} notice={notice} onCloseError={() => setError('')} onCloseNotice={() => setNotice('')} />
        <TableContainer>
          <Table size="small" data-testid="number-table">
            <TableHead>
              <TableRow>
                <TableCell>Number</TableCell>
                <TableCell>Customer</TableCell>
                <TableCell>Campaign</TableCell>
                <TableCell align="right">Setup fee</TableCell>
                <TableCell align="right">Monthly fee</TableCell>
                <TableCell>Status</TableCell>
                <TableCell align="right">Action</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow hover key={row.id} data-testid="number-row" data-number={row.number}>
                  <TableCell>{row.number}</TableCell>
                  <TableCell data-testid="number-customer">{row.customer_name ?? 'Pool'}</TableCell>
                  <TableCell>{row.campaign_name ?? '—'}</TableCell>
                  <TableCell align="right">{formatBalance(row.setup_fee)}</TableCell>
                  <TableCell align="right">{formatBalance(row.monthly_fee)}</TableCell>
                  <TableCell>
                    <TextField
                      select
                      size="small"
                      variant="standard"
                      value={row.status}
                      disabled={busy}
                      onChange={(e) => setStatus(row, e.target.value)}
                      slotProps={{ htmlInput: { 'aria-label': `Status of ${row.number}`, 'data-testid': 'number-status' } }}
                    >
                      {NUMBER_STATUSES.map((s) => (
                        <MenuItem key={s} value={s}>
                          {s}
                        </MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <IconButton size="small" aria-label={`Fees of ${row.number}`} onClick={() => setEditing(row)} data-testid="number-edit">
                      <EditOutlined />
                    </IconButton>
                    {row.user_id && (
                      <Tooltip title="Release to the pool">
                        <IconButton size="small" color="error" aria-label={`Release ${row.number}`} onClick={() => setReleasing(row)} data-testid="number-release">
                          <RollbackOutlined />
                        </IconButton>
                      </Tooltip>
                    )}
                  </TableCell>
                </TableRow>
              ))}
              {!loading && rows.length === 0 && !error && <EmptyRow colSpan={7} text="No numbers found." />}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination {...pagination} />
      </MainCard>
      <NumberDialog open={editing !== null} number={editing?.id ? editing : null} onClose={() => setEditing(null)} onSaved={saved} />
      {giving && (
        <NumberPoolDialog
          forCustomer
          onClose={() => setGiving(false)}
          onConfirm={(ids, userId) => giveNumbers(userId, ids)}
          onDone={(result) => {
            setGiving(false);
            saved(result.message);
          }}
        />
      )}
      <ConfirmDialog
        open={releasing !== null}
        title="Release number"
        text={releasing ? `Release ${releasing.number} from ${releasing.customer_name} to the pool? Its calls stop routing; fees paid stay paid.` : ''}
        confirmLabel="Release"
        busy={busy}
        onConfirm={release}
        onClose={() => setReleasing(null)}
      />
    </>
  );
}
