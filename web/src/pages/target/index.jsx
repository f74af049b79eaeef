// Targets: where buyers take calls (the admin sees every customer's). Add, edit, activate and
// delete; each row shows its buyer, trunk, caps and open hours at a glance.
import Button from '@mui/material/Button';
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
import { targets } from '../../api/targets';
import useEntityActions from '../../hooks/useEntityActions';
import usePagedList from '../../hooks/usePagedList';
import { formatBalance } from '../../utils/balance';
import { isAdmin } from '../../utils/roles';
import { getStoredUser } from '../../utils/storage';
import { capsSummary, scheduleSummary } from '../../utils/targetForm';
import TargetDialog from './TargetDialog';

export default function TargetPage() {
  const admin = isAdmin(getStoredUser());
  const { rows, loading, error, setError, search, setSearch, reload, pagination } = usePagedList(targets.list, {
    failure: 'Targets could not be loaded.'
  });
  const { notice, setNotice, busy, editing, setEditing, deleting, setDeleting, toggle, remove, saved } = useEntityActions(targets, 'Target', {
    reload,
    setError
  });

  return (
    <>
      <PageTitle title="Target">
        <Button variant="contained" startIcon={<PlusOutlined />} onClick={() => setEditing({})} data-testid="target-add">
          Add target
        </Button>
      </PageTitle>
      <MainCard content={false} title="Targets" secondary={<SearchBox label="Search targets" value={search} onChange={setSearch} />}>
        {loading && <LinearProgress sx={{ borderRadius: 0 }} />}
        <ListMessages name="target" error={error} notice={notice} onCloseError={() => setError('')} onCloseNotice={() => setNotice('')} />
        <TableContainer>
          <Table size="small" data-testid="target-table">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Buyer</TableCell>
                {admin && <TableCell>Customer</TableCell>}
                <TableCell>Destination</TableCell>
                <TableCell>Trunk</TableCell>
                <TableCell>Caps</TableCell>
                <TableCell>Open hours</TableCell>
                <TableCell align="right">Payout</TableCell>
                <TableCell>Active</TableCell>
                <TableCell align="right">Action</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow hover key={row.id} data-testid="target-row" data-name={row.name}>
                  <TableCell>{row.name}</TableCell>
                  <TableCell>{row.buyer_name}</TableCell>
                  {admin && <TableCell>{row.user_id}</TableCell>}
                  <TableCell>{row.destination}</TableCell>
                  <TableCell sx={{ color: row.trunk_name ? undefined : 'warning.main' }}>{row.trunk_name ?? 'None'}</TableCell>
                  <TableCell data-testid="target-caps">{capsSummary(row)}</TableCell>
                  <TableCell data-testid="target-hours">
                    {scheduleSummary(row.schedule)}
                    {Object.keys(row.schedule ?? {}).length > 0 && ` (${row.timezone})`}
                  </TableCell>
                  <TableCell align="right">{formatBalance(row.payout)}</TableCell>
                  <TableCell>
                    <StatusSwitch name="target" row={row} busy={busy} onToggle={toggle} />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <RowActions name="target" label={row.name} onEdit={() => setEditing(row)} onDelete={() => setDeleting(row)} />
                  </TableCell>
                </TableRow>
              ))}
              {!loading && rows.length === 0 && !error && <EmptyRow colSpan={admin ? 10 : 9} text="No targets found." />}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination {...pagination} />
      </MainCard>
      <TargetDialog open={editing !== null} target={editing?.id ? editing : null} admin={admin} onClose={() => setEditing(null)} onSaved={saved} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete target"
        text={deleting ? `Delete target ${deleting.name}? A target with calls can't be deleted; deactivate it instead.` : ''}
        confirmLabel="Delete"
        busy={busy}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
