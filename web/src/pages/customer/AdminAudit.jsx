// The admin audit, a tab of the User screen (the spec's menus have no audit entry, and every row
// is an action on a user): who did what to which account, when and from where.
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';

import { FilterSelect, SearchBox } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import { fetchAdminAudit } from '../../api/users';
import usePagedList from '../../hooks/usePagedList';
import { formatDateTime } from '../../utils/report';

export const AUDIT_ACTIONS = {
  api_token: 'API token issued',
  password: 'Password set',
  role: 'Role changed',
  status: 'Status changed',
  top_up: 'Wallet topped up',
  impersonate: 'Impersonation started',
  delete: 'Account deleted'
};
const byLabel = Object.fromEntries(Object.entries(AUDIT_ACTIONS).map(([k, v]) => [v, k]));

export default function AdminAudit({ timezone }) {
  const list = usePagedList(fetchAdminAudit, { perpage: 25, failure: 'The audit could not be loaded.' });
  const { rows, search, setSearch, filters, filterBy } = list;
  return (
    <ListCard
      name="audit"
      title="Administrator actions"
      secondary={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <FilterSelect
            label="Action"
            value={AUDIT_ACTIONS[filters.action]}
            options={Object.values(AUDIT_ACTIONS)}
            onChange={(v) => filterBy(v ? { action: byLabel[v] } : {})}
          />
          <SearchBox label="Search by email" value={search} onChange={setSearch} />
        </Stack>
      }
      list={list}
      columns={['When', 'Administrator', 'Account', 'Action', 'Detail', 'Address']}
      emptyText="No administrator actions recorded."
    >
      {rows.map((row) => (
        <TableRow hover key={row.id} data-testid="audit-row" data-action={row.action}>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.created_at, timezone)}</TableCell>
          <TableCell>{row.admin_email}</TableCell>
          <TableCell>{row.user_email}</TableCell>
          <TableCell>{AUDIT_ACTIONS[row.action] ?? row.action}</TableCell>
          <TableCell>{row.detail ?? '—'}</TableCell>
          <TableCell>{row.ip ?? '—'}</TableCell>
        </TableRow>
      ))}
    </ListCard>
  );
}
