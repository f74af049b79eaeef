// The admin audit, a tab of the User screen (the spec's menus have no audit entry, and every row
// is an action on a user): who did what to which account, when and from where.
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';

import { FilterSelect, SearchBox } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import { call } from '../../api/client';
import { usersAudit, type AdminAction } from '../../client';
import usePagedList, { type PageQuery } from '../../hooks/usePagedList';
import { formatDateTime, timeColumn } from '../../utils/time';

export const AUDIT_ACTIONS: Record<AdminAction, string> = {
  api_token: 'API token issued',
  password: 'Password set',
  role: 'Role changed',
  status: 'Status changed',
  top_up: 'Wallet topped up',
  impersonate: 'Impersonation started',
  delete: 'Account deleted'
};
const ACTIONS = Object.keys(AUDIT_ACTIONS) as AdminAction[]; // the keys of a Record<AdminAction, ...>
const LABELS = ACTIONS.map((action) => AUDIT_ACTIONS[action]);
const byLabel = (label: string) => ACTIONS.find((action) => AUDIT_ACTIONS[action] === label);

interface AuditFilters {
  action: AdminAction;
}

/** The admin audit (GET /user/audit): administrator actions on accounts, newest first. */
const fetchAdminAudit = (query: PageQuery & Partial<AuditFilters>) => call(usersAudit({ query }));

export default function AdminAudit({ timezone }: { timezone: string | null | undefined }) {
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
            value={filters.action && AUDIT_ACTIONS[filters.action]}
            options={LABELS}
            onChange={(v) => {
              const action = byLabel(v);
              filterBy(action ? { action } : {});
            }}
          />
          <SearchBox label="Search by email" value={search} onChange={setSearch} />
        </Stack>
      }
      list={list}
      columns={[timeColumn('When', timezone), 'Administrator', 'Account', 'Action', 'Detail', 'Address']}
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
