// Traffic sources (issue 33, not in the menu: reached from the dashboard's by-source card and the
// number form): a customer's publishers and channels, the utm_source that means each, and what its
// publisher is owed per converted call. Add, edit, activate or deactivate, delete (refused while
// calls name it: deactivate it instead).
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { PlusOutlined } from '@ant-design/icons';

import { DeleteConfirm, StatusAndActionCells } from '../../components/EntityRowParts';
import { SearchBox } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { sourcesDetails, sourcesRemove, sourcesUpdate, type SourceRow } from '../../client';
import useEntityActions, { type EntityCalls } from '../../hooks/useEntityActions';
import usePagedList, { listQuery, type PageQuery } from '../../hooks/usePagedList';
import { isAdmin } from '../../utils/roles';
import { payoutText } from '../../utils/sourceForm';
import { getStoredUser } from '../../utils/storage';
import SourceDialog from './SourceDialog';

const fetchSources = (query: PageQuery) => call(sourcesDetails({ query: listQuery(query) }));

const sourceCalls: EntityCalls = {
  setStatus: (id, status) => call(sourcesUpdate({ path: { id }, body: { status } })),
  remove: (id) => call(sourcesRemove({ path: { id } }))
};

export default function SourcePage() {
  const admin = isAdmin(getStoredUser());
  const list = usePagedList(fetchSources, { failure: 'Sources could not be loaded.' });
  const { rows, setError, search, setSearch, reload } = list;
  const actions = useEntityActions<SourceRow>(sourceCalls, 'Source', { reload, setError });
  const { notice, setNotice, editing, setEditing, saved } = actions;

  return (
    <>
      <PageTitle title="Sources">
        <Button
          variant="contained"
          startIcon={<PlusOutlined />}
          onClick={() => setEditing({})}
          data-testid="source-add"
        >
          Add source
        </Button>
      </PageTitle>
      <ListCard
        name="source"
        title="Traffic sources"
        secondary={<SearchBox label="Search sources" value={search} onChange={setSearch} />}
        list={list}
        notice={notice}
        setNotice={setNotice}
        columns={[
          'Name',
          ...(admin ? ['Customer'] : []),
          'utm_source',
          'Publisher payout',
          ['Numbers', 'right'],
          'Active',
          ['Action', 'right']
        ]}
        emptyText="No sources yet: add the publishers and channels your calls come from."
      >
        {rows.map((row) => (
          <TableRow hover key={row.id} data-testid="source-row" data-name={row.name}>
            <TableCell>{row.name}</TableCell>
            {admin && <TableCell>{row.customer_name ?? '—'}</TableCell>}
            <TableCell>{row.utm_source ?? '—'}</TableCell>
            <TableCell data-testid="source-payout">{payoutText(row)}</TableCell>
            <TableCell align="right" data-testid="source-numbers">
              {row.numbers ?? 0}
            </TableCell>
            <StatusAndActionCells name="source" row={row} actions={actions} />
          </TableRow>
        ))}
      </ListCard>
      <SourceDialog
        open={editing !== null}
        source={editing?.id ? editing : null}
        admin={admin}
        onClose={() => setEditing(null)}
        onSaved={saved}
      />
      <DeleteConfirm
        noun="source"
        actions={actions}
        question={(row) =>
          `Delete source ${row.name}? Its numbers keep routing, with no source. A source calls are attributed to is kept; deactivate it instead.`
        }
      />
    </>
  );
}
