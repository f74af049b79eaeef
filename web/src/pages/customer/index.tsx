// Users (admin): customers, administrators and buyers' sign-ins, with their tariff, time zone and
// balance. Add (a customer or another administrator), edit, activate/deactivate, delete (the
// server refuses a user that still owns things, and says why), a new API token, making a
// customer an administrator, and impersonation. A second tab lists the admin audit.
import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import { CrownOutlined, KeyOutlined, PlusOutlined, UserSwitchOutlined } from '@ant-design/icons';

import ConfirmDialog from '../../components/ConfirmDialog';
import { FilterSelect, RowActions, SearchBox, StatusSwitch } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { impersonate } from '../../api/auth';
import { call } from '../../api/client';
import {
  tariffsDetails,
  usersChangeStatus,
  usersDetails,
  usersMakeAdmin,
  usersNewApiToken,
  usersRemove,
  type TariffOut,
  type UserOut
} from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import useEntityActions, { type EntityCalls } from '../../hooks/useEntityActions';
import usePagedList, { listQuery, type PageQuery } from '../../hooks/usePagedList';
import { formatBalance, moneyPlaces } from '../../utils/balance';
import { isAdmin, isCustomer } from '../../utils/roles';
import { getStoredUser } from '../../utils/storage';
import { namesById } from '../../utils/userForm';
import AdminAudit from './AdminAudit';
import ApiTokenDialog from './ApiTokenDialog';
import UserDialog from './UserDialog';

const ROLE_FILTER = { admin: 1, customer: 2, buyer: 3 };
type RoleName = keyof typeof ROLE_FILTER;
const ROLE_NAMES: RoleName[] = ['admin', 'customer', 'buyer'];

interface UserFilters {
  role: number;
}

const fetchUsers = (query: PageQuery & Partial<UserFilters>) => call(usersDetails({ query: listQuery(query) }));

const userCalls: EntityCalls = {
  setStatus: (id, status) => call(usersChangeStatus({ path: { id }, body: { status } })),
  remove: (id) => call(usersRemove({ path: { id } }))
};

/** A new API token `{user_id, token}` for user `id`; the previous one stops working. */
const issueApiToken = (id: number) => call(usersNewApiToken({ path: { user_id: id } }));

/** Every tariff (up to the API's page size), active ones for picking. */
const tariffNames = async () => (await call(tariffsDetails({ query: { page: 1, perpage: 500 } })))?.data ?? [];

export default function CustomerPage() {
  const me = getStoredUser();
  const list = usePagedList(fetchUsers, { failure: 'Users could not be loaded.' });
  const places = moneyPlaces(list.rows.map((r) => r.balance));
  const { rows, setError, search, setSearch, filters, filterBy, reload } = list;
  const actions = useEntityActions<UserOut>(userCalls, 'User', { reload, setError });
  const { notice, setNotice, busy, editing, setEditing, deleting, setDeleting, act, toggle, remove, saved } = actions;
  const [tariffs, setTariffs] = useState<TariffOut[]>([]);
  const [promoting, setPromoting] = useState<UserOut | null>(null);
  const [tokenFor, setTokenFor] = useState<UserOut | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [tab, setTab] = useState(0);

  useEffect(() => {
    tariffNames()
      .then(setTariffs)
      .catch((err: unknown) => setError(failureMessage(err, 'Tariffs could not be loaded.')));
  }, [setError]);
  const tariffName = namesById(tariffs);

  const startImpersonation = async (row: UserOut) => {
    setBusyId(row.id);
    setError('');
    try {
      await impersonate(row.id);
    } catch (err) {
      setError(failureMessage(err, 'Impersonation failed.'));
      setBusyId(null);
    }
  };

  const promote = () => {
    const row = promoting;
    if (!row) return;
    setPromoting(null);
    void act(async () => {
      await call(usersMakeAdmin({ path: { user_id: row.id } }));
      return `${row.name} is now an administrator.`;
    }, 'The user could not be made an administrator.');
  };

  const roleName = ROLE_NAMES.find((name) => ROLE_FILTER[name] === filters.role);

  return (
    <>
      <PageTitle title="User">
        <Button variant="contained" startIcon={<PlusOutlined />} onClick={() => setEditing({})} data-testid="user-add">
          Add user
        </Button>
      </PageTitle>
      <Tabs value={tab} onChange={(_, t) => setTab(t)} sx={{ mb: 2 }}>
        <Tab label="Users" data-testid="customer-tab-users" />
        <Tab label="Audit" data-testid="customer-tab-audit" />
      </Tabs>
      {tab === 1 && <AdminAudit timezone={me?.timezone} />}
      {tab === 0 && (
        <ListCard
          name="customer"
          title="Users"
          secondary={
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <FilterSelect
                label="Role"
                value={roleName}
                options={ROLE_NAMES}
                onChange={(v) => filterBy(v ? { role: ROLE_FILTER[v] } : {})}
              />
              <SearchBox label="Search users" value={search} onChange={setSearch} />
            </Stack>
          }
          list={list}
          notice={notice}
          setNotice={setNotice}
          columns={['Name', 'Email', 'Role', 'Tariff', 'Timezone', ['Balance', 'right'], 'Active', ['Action', 'right']]}
          emptyText="No users found."
        >
          {rows.map((row) => {
            const self = row.id === me?.user_id;
            return (
              <TableRow hover key={row.id} data-testid="customer-row" data-name={row.name}>
                <TableCell>
                  {row.name}
                  {row.company ? ` (${row.company})` : ''}
                </TableCell>
                <TableCell>{row.email}</TableCell>
                <TableCell>{row.role_name}</TableCell>
                <TableCell data-testid="customer-tariff">
                  {row.tariff_id ? (tariffName[row.tariff_id] ?? '…') : '—'}
                </TableCell>
                <TableCell>{row.timezone}</TableCell>
                <TableCell align="right" data-testid="customer-balance">
                  {isCustomer(row) ? formatBalance(row.balance, undefined, places) : '—'}
                </TableCell>
                <TableCell>
                  {self ? row.status : <StatusSwitch name="customer" row={row} busy={busy} onToggle={toggle} />}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {!isAdmin(row) && (
                    <Button
                      size="small"
                      variant="dashed"
                      color="primary"
                      startIcon={<UserSwitchOutlined />}
                      onClick={() => startImpersonation(row)}
                      disabled={busyId !== null || row.status !== 'active'}
                      data-testid="impersonate-button"
                      sx={{ mr: 1 }}
                    >
                      Impersonate
                    </Button>
                  )}
                  <Tooltip title="New API token">
                    <IconButton
                      size="small"
                      aria-label={`New API token for ${row.name}`}
                      onClick={() => setTokenFor(row)}
                      data-testid="customer-token"
                    >
                      <KeyOutlined />
                    </IconButton>
                  </Tooltip>
                  {isCustomer(row) && (
                    <Tooltip title="Make administrator">
                      <IconButton
                        size="small"
                        aria-label={`Make ${row.name} an administrator`}
                        onClick={() => setPromoting(row)}
                        data-testid="customer-promote"
                      >
                        <CrownOutlined />
                      </IconButton>
                    </Tooltip>
                  )}
                  <RowActions
                    name="customer"
                    label={row.name}
                    onEdit={() => setEditing(row)}
                    onDelete={self ? undefined : () => setDeleting(row)}
                  />
                </TableCell>
              </TableRow>
            );
          })}
        </ListCard>
      )}
      <UserDialog
        open={editing !== null}
        user={editing?.id ? editing : null}
        tariffs={tariffs}
        onClose={() => setEditing(null)}
        onSaved={saved}
      />
      <ApiTokenDialog user={tokenFor} issue={issueApiToken} onClose={() => setTokenFor(null)} />
      <ConfirmDialog
        open={promoting !== null}
        title="Make administrator"
        text={
          promoting
            ? `Make ${promoting.name} an administrator? Only a customer with no numbers, buyers, calls or payments can be.`
            : ''
        }
        confirmLabel="Make administrator"
        busy={busy}
        onConfirm={promote}
        onClose={() => setPromoting(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete user"
        text={
          deleting
            ? `Delete user ${deleting.name}? A user with numbers, calls or payments is kept; deactivate it instead.`
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
