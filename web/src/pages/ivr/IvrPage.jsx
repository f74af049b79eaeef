// IVR Auth (admin /ivr, customer /user_ivr): every campaign with its IVR authentication (on or
// off, prompt, PIN length, attempts, how many PINs); the admin sees every customer's, by name.
// Editing opens the campaign's IVR settings; `?campaign=ID&name=NAME` (from the campaign dialog)
// opens them at once.
import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { EditOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router-dom';

import { FilterSelect, SearchBox } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import NamePicker from '../../components/NamePicker';
import { PageTitle } from '../../components/PagePlaceholder';
import { ivrList } from '../../api/campaigns';
import { fetchActiveCustomers } from '../../api/pickers';
import usePagedList from '../../hooks/usePagedList';
import { statusColor } from '../../utils/status';
import IvrDialog from './IvrDialog';

const ENABLED = { on: true, off: false };

export default function IvrPage({ admin }) {
  const list = usePagedList(ivrList, { failure: 'The IVR settings could not be loaded.' });
  const { rows, search, setSearch, filters, filterBy, reload } = list;
  const [notice, setNotice] = useState('');
  const [editing, setEditing] = useState(null);
  const [customers, setCustomers] = useState([]);
  const [params, setParams] = useSearchParams();

  useEffect(() => {
    const id = params.get('campaign');
    if (id) {
      setEditing({ campaign_id: Number(id), name: params.get('name') || `campaign ${id}` });
      setParams({}, { replace: true });
    }
  }, [params]);

  useEffect(() => {
    if (admin)
      fetchActiveCustomers()
        .then(setCustomers)
        .catch(() => setCustomers([]));
  }, [admin]);

  const filter = (change) =>
    filterBy(
      Object.fromEntries(Object.entries({ ...filters, ...change }).filter(([, v]) => v !== null && v !== undefined))
    );
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
              options={Object.keys(ENABLED)}
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
            <TableCell>{row.ivr_prompt || 'Default'}</TableCell>
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
