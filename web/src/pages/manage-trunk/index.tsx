// Trunks (admin): the list with what Asterisk last found of each endpoint, add, edit,
// activate/deactivate and delete. Changes reach Asterisk at once (no restart).
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';

import ConfirmDialog from '../../components/ConfirmDialog';
import { FilterSelect, RowActions, SearchBox, StatusSwitch } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { trunksDetails, trunksRemove, trunksSetStatus, type TrunkDirection, type TrunkOut } from '../../client';
import useEntityActions, { type EntityCalls } from '../../hooks/useEntityActions';
import usePagedList, { listQuery, type PageQuery } from '../../hooks/usePagedList';
import { endpointColor } from '../../utils/status';
import { DIRECTIONS } from '../../utils/trunkForm';
import TrunkDialog from './TrunkDialog';

interface TrunkFilters {
  direction: TrunkDirection;
}

const fetchTrunks = (query: PageQuery & Partial<TrunkFilters>) => call(trunksDetails({ query: listQuery(query) }));

const trunkCalls: EntityCalls = {
  setStatus: (id, status) => call(trunksSetStatus({ path: { id }, body: { status } })),
  remove: (id) => call(trunksRemove({ path: { id } }))
};

export default function ManageTrunkPage() {
  const list = usePagedList(fetchTrunks, {
    failure: 'Trunks could not be loaded.'
  });
  const { rows, setError, search, setSearch, filters, filterBy, reload: load } = list;
  const { notice, setNotice, busy, editing, setEditing, deleting, setDeleting, toggle, remove, saved } =
    useEntityActions<TrunkOut>(trunkCalls, 'Trunk', { reload: load, setError });

  return (
    <>
      <PageTitle title="Trunk">
        <Button variant="contained" startIcon={<PlusOutlined />} onClick={() => setEditing({})} data-testid="trunk-add">
          Add trunk
        </Button>
      </PageTitle>
      <ListCard
        name="trunk"
        title="SIP trunks"
        secondary={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <FilterSelect
              label="Direction"
              value={filters.direction}
              options={DIRECTIONS}
              onChange={(v) => filterBy(v ? { direction: v } : {})}
            />
            <SearchBox label="Search trunks" value={search} onChange={setSearch} />
            <Tooltip title="Refresh (endpoint status too)">
              <IconButton onClick={load} aria-label="Refresh trunks">
                <ReloadOutlined />
              </IconButton>
            </Tooltip>
          </Stack>
        }
        list={list}
        notice={notice}
        setNotice={setNotice}
        columns={[
          'Name',
          'Direction',
          'Address',
          'Auth',
          'Codecs',
          ['Channels', 'right'],
          'Endpoint',
          'Active',
          ['Action', 'right']
        ]}
        emptyText="No trunks found."
      >
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
              <RowActions
                name="trunk"
                label={row.name}
                onEdit={() => setEditing(row)}
                onDelete={() => setDeleting(row)}
              />
            </TableCell>
          </TableRow>
        ))}
      </ListCard>
      <TrunkDialog
        open={editing !== null}
        trunk={editing?.id ? editing : null}
        onClose={() => setEditing(null)}
        onSaved={saved}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete trunk"
        text={
          deleting
            ? `Delete trunk ${deleting.name}? Targets using it and its call history keep it from being deleted.`
            : ''
        }
        confirmLabel="Delete"
        busy={busy}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
