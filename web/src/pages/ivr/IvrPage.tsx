// IVR Auth (admin /ivr, customer /user_ivr): every campaign with its IVR authentication (on or
// off, prompt, PIN length, attempts, how many PINs); the admin sees every customer's, by name.
// Editing opens the campaign's IVR settings (also on the campaign page's IVR tab).
import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { EditOutlined } from '@ant-design/icons';

import { FilterSelect, SearchBox } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import NamePicker from '../../components/NamePicker';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { ivrDetails, usersActiveCustomers, type UserBrief } from '../../client';
import usePagedList, { listQuery, type PageQuery } from '../../hooks/usePagedList';
import { promptName } from '../../utils/ivrForm';
import { statusColor } from '../../utils/status';
import IvrDialog, { type IvrCampaign } from './IvrDialog';

const ENABLED = { on: true, off: false };
type EnabledName = keyof typeof ENABLED;
const ENABLED_NAMES: EnabledName[] = ['on', 'off'];

interface IvrFilters {
  user_id: number;
  enabled: boolean;
}

const fetchIvr = (query: PageQuery & Partial<IvrFilters>) => call(ivrDetails({ query: listQuery(query) }));

export default function IvrPage({ admin }: { admin: boolean }) {
  const list = usePagedList(fetchIvr, { failure: 'The IVR settings could not be loaded.' });
  const { rows, search, setSearch, filters, filterBy, reload } = list;
  const [notice, setNotice] = useState('');
  const [editing, setEditing] = useState<IvrCampaign | null>(null);
  const [customers, setCustomers] = useState<UserBrief[]>([]);

  useEffect(() => {
    if (admin)
      call(usersActiveCustomers())
        .then((found) => setCustomers(found ?? []))
        .catch(() => setCustomers([]));
  }, [admin]);

  /** Change some filters (null: that one off), keep the others. */
  const filter = (change: { [K in keyof IvrFilters]?: IvrFilters[K] | null }) => {
    const next = { ...filters, ...change };
    filterBy({
      ...(next.user_id != null && { user_id: next.user_id }),
      ...(next.enabled != null && { enabled: next.enabled })
    });
  };
  const enabledName = Object.entries(ENABLED).find(([, v]) => v === filters.enabled)?.[0];

  return (
    <>
      <PageTitle title="IVR Auth" />
      <ListCard
        name="ivr"
        title="Campaigns and their IVR authentication"
        secondary={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            {admin && (
              <Box sx={{ minWidth: 220 }}>
                <NamePicker
                  label="Customer"
                  options={customers}
                  value={filters.user_id ?? null}
                  onChange={(id) => filter({ user_id: id })}
                  testId="ivr-customer"
                  helperText=""
                />
              </Box>
            )}
            <FilterSelect
              label="IVR"
              value={enabledName}
              options={ENABLED_NAMES}
              onChange={(v) => filter({ enabled: v ? ENABLED[v] : null })}
            />
            <SearchBox label="Search campaigns" value={search} onChange={setSearch} />
          </Stack>
        }
        list={list}
        notice={notice}
        setNotice={setNotice}
        columns={[
          'Campaign',
          admin && 'Customer',
          'IVR',
          'Prompt',
          ['PIN length', 'right'],
          ['PINs', 'right'],
          ['Attempts', 'right'],
          'Campaign status',
          ['Action', 'right']
        ]}
        emptyText="No campaigns found."
      >
        {rows.map((row) => (
          <TableRow hover key={row.campaign_id} data-testid="ivr-row" data-name={row.name}>
            <TableCell>{row.name}</TableCell>
            {admin && <TableCell>{row.customer_name ?? '—'}</TableCell>}
            <TableCell>
              <Chip
                size="small"
                variant="light"
                color={row.ivr_enabled ? 'success' : 'default'}
                label={row.ivr_enabled ? 'On' : 'Off'}
                data-testid="ivr-state"
              />
            </TableCell>
            <TableCell>{promptName(row.ivr_prompt)}</TableCell>
            <TableCell align="right">{row.ivr_digits}</TableCell>
            <TableCell align="right" data-testid="ivr-pin-count">
              {row.ivr_pins.length}
            </TableCell>
            <TableCell align="right">{row.ivr_attempts}</TableCell>
            <TableCell>
              <Chip size="small" variant="light" color={statusColor(row.status)} label={row.status} />
            </TableCell>
            <TableCell align="right">
              <IconButton
                size="small"
                aria-label={`IVR settings of ${row.name}`}
                onClick={() => setEditing(row)}
                data-testid="ivr-edit"
              >
                <EditOutlined />
              </IconButton>
            </TableCell>
          </TableRow>
        ))}
      </ListCard>
      {editing && (
        <IvrDialog
          campaign={editing}
          onClose={() => setEditing(null)}
          onSaved={(text) => {
            setEditing(null);
            setNotice(text);
            reload();
          }}
        />
      )}
    </>
  );
}
