// Tariffs (admin): the price lists customers are billed by. Add, edit, activate, delete (refused
// while customers or rated calls use one); see who uses a tariff; open one to see its rates.
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { PlusOutlined, TeamOutlined } from '@ant-design/icons';

import ConfirmDialog from '../../components/ConfirmDialog';
import { FilterSelect, RowActions, SearchBox, StatusSwitch } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { tariffsDetails, tariffsRemove, tariffsSetStatus, type Status, type TariffOut } from '../../client';
import useEntityActions, { type EntityCalls } from '../../hooks/useEntityActions';
import usePagedList, { listQuery, type PageQuery } from '../../hooks/usePagedList';
import { formatDateTime, timeColumn } from '../../utils/time';
import { getStoredUser } from '../../utils/storage';
import TariffCustomersDialog from './TariffCustomersDialog';
import TariffDialog from './TariffDialog';

interface TariffFilters {
  status: Status;
}

const STATUSES: Status[] = ['active', 'inactive'];

const fetchTariffs = (query: PageQuery & Partial<TariffFilters>) => call(tariffsDetails({ query: listQuery(query) }));

const tariffCalls: EntityCalls = {
  setStatus: (id, status) => call(tariffsSetStatus({ path: { id }, body: { status } })),
  remove: (id) => call(tariffsRemove({ path: { id } }))
};

export default function TariffPage() {
  const timezone = getStoredUser()?.timezone;
  const list = usePagedList(fetchTariffs, { failure: 'Tariffs could not be loaded.' });
  const { rows, setError, search, setSearch, filters, filterBy, reload } = list;
  const { notice, setNotice, busy, editing, setEditing, deleting, setDeleting, toggle, remove, saved } =
    useEntityActions<TariffOut>(tariffCalls, 'Tariff', { reload, setError });
  const [showing, setShowing] = useState<TariffOut | null>(null);

  return (
    <>
      <PageTitle title="Tariff">
        <Button
          variant="contained"
          startIcon={<PlusOutlined />}
          onClick={() => setEditing({})}
          data-testid="tariff-add"
        >
          Add tariff
        </Button>
      </PageTitle>
      <ListCard
        name="tariff"
        title="Tariffs"
        secondary={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <FilterSelect
              label="Status"
              value={filters.status}
              options={STATUSES}
              onChange={(v) => filterBy(v ? { status: v } : {})}
            />
            <SearchBox label="Search tariffs" value={search} onChange={setSearch} />
          </Stack>
        }
        list={list}
        notice={notice}
        setNotice={setNotice}
        columns={['Name', 'Currency', 'Description', timeColumn('Created', timezone), 'Active', ['Action', 'right']]}
        emptyText="No tariffs yet: add one, then its rates."
      >
        {rows.map((row) => (
          <TableRow hover key={row.id} data-testid="tariff-row" data-name={row.name}>
            <TableCell>
              <Link component={RouterLink} to={`/rate-card?tariff=${row.id}`} data-testid="tariff-open">
                {row.name}
              </Link>
            </TableCell>
            <TableCell>{row.currency}</TableCell>
            <TableCell sx={{ maxWidth: 280 }}>{row.description || '—'}</TableCell>
            <TableCell>{formatDateTime(row.created_at, timezone)}</TableCell>
            <TableCell>
              <StatusSwitch name="tariff" row={row} busy={busy} onToggle={toggle} />
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              <Tooltip title="Customers on this tariff">
                <IconButton
                  size="small"
                  aria-label={`Customers on ${row.name}`}
                  onClick={() => setShowing(row)}
                  data-testid="tariff-customers-open"
                >
                  <TeamOutlined />
                </IconButton>
              </Tooltip>
              <RowActions
                name="tariff"
                label={row.name}
                onEdit={() => setEditing(row)}
                onDelete={() => setDeleting(row)}
              />
            </TableCell>
          </TableRow>
        ))}
      </ListCard>
      <TariffDialog
        open={editing !== null}
        tariff={editing?.id ? editing : null}
        onClose={() => setEditing(null)}
        onSaved={saved}
      />
      {showing && <TariffCustomersDialog tariff={showing} onClose={() => setShowing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete tariff"
        text={
          deleting
            ? `Delete tariff ${deleting.name} and its rates? A tariff customers or rated calls use can't be deleted; deactivate it instead.`
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
