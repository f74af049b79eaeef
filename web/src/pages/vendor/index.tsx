// Vendors (admin): the carriers numbers and inbound trunks come from. Add, edit, activate or
// deactivate, delete (refused while numbers or trunks still come from it), and what each supplies.
import { useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { PlusOutlined, UnorderedListOutlined } from '@ant-design/icons';

import ConfirmDialog from '../../components/ConfirmDialog';
import { RowActions, SearchBox, StatusSwitch } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { vendorsDetails, vendorsRemove, vendorsSetStatus, type VendorOut } from '../../client';
import useEntityActions, { type EntityCalls } from '../../hooks/useEntityActions';
import usePagedList, { listQuery, type PageQuery } from '../../hooks/usePagedList';
import VendorDialog from './VendorDialog';
import VendorSupplyDialog from './VendorSupplyDialog';

const fetchVendors = (query: PageQuery) => call(vendorsDetails({ query: listQuery(query) }));

const vendorCalls: EntityCalls = {
  setStatus: (id, status) => call(vendorsSetStatus({ path: { id }, body: { status } })),
  remove: (id) => call(vendorsRemove({ path: { id } }))
};

export default function VendorPage() {
  const list = usePagedList(fetchVendors, { failure: 'Vendors could not be loaded.' });
  const { rows, setError, search, setSearch, reload } = list;
  const { notice, setNotice, busy, editing, setEditing, deleting, setDeleting, toggle, remove, saved } =
    useEntityActions<VendorOut>(vendorCalls, 'Vendor', {
      reload,
      setError
    });
  const [showing, setShowing] = useState<VendorOut | null>(null);

  return (
    <>
      <PageTitle title="Vendor">
        <Button
          variant="contained"
          startIcon={<PlusOutlined />}
          onClick={() => setEditing({})}
          data-testid="vendor-add"
        >
          Add vendor
        </Button>
      </PageTitle>
      <ListCard
        name="vendor"
        title="Vendors of numbers and trunks"
        secondary={<SearchBox label="Search vendors" value={search} onChange={setSearch} />}
        list={list}
        notice={notice}
        setNotice={setNotice}
        columns={['Name', 'Contact', 'Email', 'Phone', 'Active', ['Action', 'right']]}
        emptyText="No vendors found."
      >
        {rows.map((row) => (
          <TableRow hover key={row.id} data-testid="vendor-row" data-name={row.name}>
            <TableCell>{row.name}</TableCell>
            <TableCell>{row.contact_name ?? '—'}</TableCell>
            <TableCell>{row.email ?? '—'}</TableCell>
            <TableCell>{row.phone ?? '—'}</TableCell>
            <TableCell>
              <StatusSwitch name="vendor" row={row} busy={busy} onToggle={toggle} />
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              <Tooltip title="Numbers and trunks">
                <IconButton
                  size="small"
                  aria-label={`Numbers and trunks of ${row.name}`}
                  onClick={() => setShowing(row)}
                  data-testid="vendor-supply"
                >
                  <UnorderedListOutlined />
                </IconButton>
              </Tooltip>
              <RowActions
                name="vendor"
                label={row.name}
                onEdit={() => setEditing(row)}
                onDelete={() => setDeleting(row)}
              />
            </TableCell>
          </TableRow>
        ))}
      </ListCard>
      <VendorDialog
        open={editing !== null}
        vendor={editing?.id ? editing : null}
        onClose={() => setEditing(null)}
        onSaved={saved}
      />
      {showing && <VendorSupplyDialog vendor={showing} onClose={() => setShowing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete vendor"
        text={
          deleting
            ? `Delete vendor ${deleting.name}? A vendor that still supplies numbers or trunks is kept; deactivate it instead.`
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
