// Blocked callers: their calls are refused before any target rings (BLOCKED in the report).
// Customers manage their own blocks and see the admin's platform-wide ones, read-only.
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { PlusOutlined } from '@ant-design/icons';

import ConfirmDialog from '../../components/ConfirmDialog';
import { RowActions, SearchBox, StatusSwitch } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { blocksDetails, blocksRemove, blocksStatus, type BlockOut } from '../../client';
import useEntityActions, { type EntityCalls } from '../../hooks/useEntityActions';
import usePagedList, { listQuery, type PageQuery } from '../../hooks/usePagedList';
import { MATCH_TYPES, blockScope } from '../../utils/blockForm';
import { isAdmin } from '../../utils/roles';
import { getStoredUser } from '../../utils/storage';
import BlockDialog from './BlockDialog';

const matchLabel: Record<string, string> = Object.fromEntries(MATCH_TYPES);

const fetchBlocks = (query: PageQuery) => call(blocksDetails({ query: listQuery(query) }));

const blockCalls: EntityCalls = {
  setStatus: (id, status) => call(blocksStatus({ path: { id }, body: { status } })),
  remove: (id) => call(blocksRemove({ path: { id } }))
};

export default function BlockNumberPage() {
  const admin = isAdmin(getStoredUser());
  const list = usePagedList(fetchBlocks, {
    failure: 'Blocked callers could not be loaded.'
  });
  const { rows, setError, search, setSearch, reload } = list;
  const { notice, setNotice, busy, editing, setEditing, deleting, setDeleting, toggle, remove, saved } =
    useEntityActions<BlockOut>(blockCalls, 'Block', {
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
      <ListCard
        name="block"
        title="Blocked callers"
        secondary={<SearchBox label="Search blocks" value={search} onChange={setSearch} />}
        list={list}
        notice={notice}
        setNotice={setNotice}
        columns={['Caller', 'Match', 'Covers', 'Reason', 'Active', ['Action', 'right']]}
        emptyText="No blocked callers."
      >
        {rows.map((row) => {
          // A customer can't change the admin's platform-wide blocks.
          const mine = admin || row.user_id !== null;
          return (
            <TableRow hover key={row.id} data-testid="block-row" data-pattern={row.pattern}>
              <TableCell>{row.pattern}</TableCell>
              <TableCell>{matchLabel[row.match_type] ?? row.match_type}</TableCell>
              <TableCell>
                {admin ? (
                  blockScope(row)
                ) : mine ? (
                  'Your calls'
                ) : (
                  <Chip size="small" variant="light" label="Platform-wide" />
                )}
              </TableCell>
              <TableCell>{row.reason ?? '—'}</TableCell>
              <TableCell>
                {mine ? (
                  <StatusSwitch name="block" row={row} label={row.pattern} busy={busy} onToggle={toggle} />
                ) : (
                  row.status
                )}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {mine && (
                  <RowActions
                    name="block"
                    label={row.pattern}
                    onEdit={() => setEditing(row)}
                    onDelete={() => setDeleting(row)}
                  />
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </ListCard>
      <BlockDialog
        open={editing !== null}
        block={editing?.id ? editing : null}
        admin={admin}
        onClose={() => setEditing(null)}
        onSaved={saved}
      />
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
