// Trunks (admin): the list with what Asterisk last found of each endpoint, add, edit,
// activate/deactivate and delete. Changes reach Asterisk at once (no restart).
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
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
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';

import ConfirmDialog from '../../components/ConfirmDialog';
import { EmptyRow, ListMessages, RowActions, SearchBox, StatusSwitch } from '../../components/ListParts';
import MainCard from '../../components/MainCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { trunks } from '../../api/trunks';
import useEntityActions from '../../hooks/useEntityActions';
import usePagedList from '../../hooks/usePagedList';
import { endpointColor } from '../../utils/status';
import { DIRECTIONS } from '../../utils/trunkForm';
import TrunkDialog from './TrunkDialog';

export default function ManageTrunkPage() {
  const { rows, loading, error, setError, search, setSearch, filters, filterBy, reload: load, pagination } = usePagedList(trunks.list, {
    failure: 'Trunks could not be loaded.'
  });
  const { notice, setNotice, busy, editing, setEditing, deleting, setDeleting, toggle, remove, saved } = useEntityActions(
    trunks,
    'Trunk',
    { reload: load, setError }
  );

  return (
    <>
      <PageTitle title="Trunk">
        <Button variant="contained" startIcon={<PlusOutlined />} onClick={() => setEditing({})} data-testid="trunk-add">
          Add trunk
        </Button>
      </PageTitle>
      <MainCard
        content={false}
        title="SIP trunks"
        secondary={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              select
              size="small"
              label="Direction"
              value={filters.direction ?? ''}
              onChange={(e) => filterBy(e.target.value ? { direction: e.target.value } : {})}
              sx={{ minWidth: 130 }}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">All</MenuItem>
              {DIRECTIONS.map((d) => (
                <MenuItem key={d} value={d}>
                  {d}
                </MenuItem>
              ))}
            </TextField>
            <SearchBox label="Search trunks" value={search} onChange={setSearch} />
            <Tooltip title="Refresh (endpoint status too)">
              <IconButton onClick={load} aria-label="Refresh trunks">
                <ReloadOutlined />
              </IconButton>
            </Tooltip>
          </Stack>
        }
      >
        {loading && <LinearProgress sx={{ borderRadius: 0 }} />}
        <ListMessages name="trunk" error={error} notice={notice} onCloseError={() => setError('')} onCloseNotice={() => setNotice('')} />
        <TableContainer>
          <Table data-testid="trunk-table" size="small">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Direction</TableCell>
                <TableCell>Address</TableCell>
                <TableCell>Auth</TableCell>
                <TableCell>Codecs</TableCell>
                <TableCell align="right">Channels</TableCell>
                <TableCell>Endpoint</TableCell>
                <TableCell>Active</TableCell>
                <TableCell align="right">Action</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow hover key={row.id} data-testid="trunk-row" data-name={row.name}>
                  <TableCell>{row.name}</TableCell>
                  <TableCell>{row.direction}</TableCell>
                  <TableCell>
                    {row.transport}:{row.host}:{row.port}
                  </TableCell>
                  <TableCell>{row.auth_type === 'digest' ? `digest (${row.username})` : 'IP'}</TableCell>
                  <TableCell>{(row.codecs ?? []).join(', ')}</TableCell>
                  <TableCell align="right">{row.max_channels ?? '∞'}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      variant="light"
                      color={endpointColor(row.endpoint_status)}
                      label={row.endpoint_status ?? (row.direction === 'inbound' ? 'Not qualified' : 'Unknown')}
                      data-testid="trunk-endpoint"
                    />
                  </TableCell>
                  <TableCell>
                    <StatusSwitch name="trunk" row={row} busy={busy} onToggle={toggle} />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <RowActions name="trunk" label={row.name} onEdit={() => setEditing(row)} onDelete={() => setDeleting(row)} />
                  </TableCell>
                </TableRow>
              ))}
              {!loading && rows.length === 0 && !error && <EmptyRow colSpan={9} text="No trunks found." />}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination {...pagination} />
      </MainCard>
      <TrunkDialog
        open={editing !== null}
        trunk={editing?.id ? editing : null}
        onClose={() => setEditing(null)}
        onSaved={saved}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete trunk"
        text={deleting ? `Delete trunk ${deleting.name}? Targets using it and its call history keep it from being deleted.` : ''}
        confirmLabel="Delete"
        busy={busy}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
