// Blocked callers: their calls are refused before any target rings (BLOCKED in the report).
// Customers manage their own blocks and see the admin's platform-wide ones, read-only.
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
import { PlusOutlined } from '@ant-design/icons';

import ConfirmDialog from '../../components/ConfirmDialog';
import { EmptyRow, ListMessages, RowActions, SearchBox, StatusSwitch } from '../../components/ListParts';
import MainCard from '../../components/MainCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { blocks } from '../../api/blocks';
import useEntityActions from '../../hooks/useEntityActions';
import usePagedList from '../../hooks/usePagedList';
import { MATCH_TYPES, blockScope } from '../../utils/blockForm';
import { isAdmin } from '../../utils/roles';
import { getStoredUser } from '../../utils/storage';
import BlockDialog from './BlockDialog';

const matchLabel = Object.fromEntries(MATCH_TYPES);

export default function BlockNumberPage() {
  const admin = isAdmin(getStoredUser());
  const { rows, loading, error, setError, search, setSearch, reload, pagination } = usePagedList(blocks.list, {
    failure: 'Blocked callers could not be loaded.'
  });
  const { notice, setNotice, busy, editing, setEditing, deleting, setDeleting, toggle, remove, saved } = useEntityActions(blocks, 'Block', {
    reload,
    setError,
    labelOf: (row) => row.pattern
  });

  return (
    <>
      <PageTitle title="Block Number">
        <Button variant="contained" startIcon={<PlusOutlined />} onClick={() => setEditing({})} data-testid="block-add">
          Block a caller
        </Button>
      </PageTitle>
      <MainCard content={false} title="Blocked callers" secondary={<SearchBox label="Search blocks" value={search} onChange={setSearch} />}>
        {loading && <LinearProgress sx={{ borderRadius: 0 }} />}
        <ListMessages name="block" error={error} notice={notice} onCloseError={() => setError('')} onCloseNotice={() => setNotice('')} />
        <TableContainer>
          <Table size="small" data-testid="block-table">
            <TableHead>
              <TableRow>
                <TableCell>Caller</TableCell>
                <TableCell>Match</TableCell>
                <TableCell>Covers</TableCell>
                <TableCell>Reason</TableCell>
                <TableCell>Active</TableCell>
                <TableCell align="right">Action</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => {
                // A customer can't change the admin's platform-wide blocks.
                const mine = admin || row.user_id !== null;
                return (
                  <TableRow hover key={row.id} data-testid="block-row" data-pattern={row.pattern}>
                    <TableCell>{row.pattern}</TableCell>
                    <TableCell>{matchLabel[row.match_type] ?? row.match_type}</TableCell>
                    <TableCell>{admin ? blockScope(row) : mine ? 'Your calls' : <Chip size="small" variant="light" label="Platform-wide" />}</TableCell>
                    <TableCell>{row.reason ?? '—'}</TableCell>
                    <TableCell>{mine ? <StatusSwitch name="block" row={row} label={row.pattern} busy={busy} onToggle={toggle} /> : row.status}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {mine && <RowActions name="block" label={row.pattern} onEdit={() => setEditing(row)} onDelete={() => setDeleting(row)} />}
                    </TableCell>
                  </TableRow>
                );
              })}
              {!loading && rows.length === 0 && !error && <EmptyRow colSpan={6} text="No blocked callers." />}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination {...pagination} />
      </MainCard>
      <BlockDialog open={editing !== null} block={editing?.id ? editing : null} admin={admin} onClose={() => setEditing(null)} onSaved={saved} />
      <ConfirmDialog
        open={deleting !== null}
        title="Unblock"
        text={deleting ? `Unblock ${deleting.pattern}? Its calls route again from the next one.` : ''}
        confirmLabel="Unblock"
        busy={busy}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
