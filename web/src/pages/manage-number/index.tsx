// Numbers (admin): the pool and every customer's tracking numbers. Add numbers to the pool, give
// pool numbers to a customer (setup fees charged), change fees and status, release to the pool.
import { useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { EditOutlined, PlusOutlined, RollbackOutlined, UploadOutlined, UserAddOutlined } from '@ant-design/icons';
import { Link } from 'react-router-dom';

import ConfirmDialog from '../../components/ConfirmDialog';
import { FilterSelect, SearchBox } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import NumberPoolDialog from '../../components/NumberPoolDialog';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import {
  numbersDetails,
  numbersGive,
  numbersRelease,
  numbersSetStatus,
  type NumberRow,
  type NumberStatus
} from '../../client';
import useEntityActions, { type EntityCalls } from '../../hooks/useEntityActions';
import usePagedList, { listQuery, type PageQuery } from '../../hooks/usePagedList';
import { formatBalance } from '../../utils/balance';
import { NUMBER_STATUSES } from '../../utils/numberForm';
import NumberDialog from './NumberDialog';
import { testId } from '../../components/testId';

interface NumberFilters {
  status: NumberStatus;
}

const fetchNumbers = (query: PageQuery & Partial<NumberFilters>) => call(numbersDetails({ query: listQuery(query) }));

const setNumberStatus = (id: number, status: NumberStatus) =>
  call(numbersSetStatus({ path: { id }, body: { status } }));

// A number is released to the pool, not deleted.
const numberCalls: EntityCalls = {
  setStatus: setNumberStatus,
  remove: (id) => call(numbersRelease({ body: { ids: [id] } }))
};

export default function ManageNumberPage() {
  const list = usePagedList(fetchNumbers, {
    failure: 'Numbers could not be loaded.'
  });
  const { rows, setError, search, setSearch, filters, filterBy, reload } = list;
  const {
    notice,
    setNotice,
    busy,
    editing,
    setEditing,
    deleting: releasing,
    setDeleting: setReleasing,
    act,
    saved
  } = useEntityActions<NumberRow>(numberCalls, 'Number', {
    reload,
    setError
  });
  const [giving, setGiving] = useState(false);

  const setStatus = (row: NumberRow, status: NumberStatus) =>
    act(async () => {
      await setNumberStatus(row.id, status);
      return `Number ${row.number} is now ${status}.`;
    }, 'The status could not be changed.');

  const release = () => {
    const row = releasing;
    if (!row) return;
    setReleasing(null);
    void act(
      async () => (await numbersRelease({ body: { ids: [row.id] } })).data.message,
      'The number could not be released.'
    );
  };

  return (
    <>
      <PageTitle title="Number">
        <Stack direction="row" spacing={1}>
          <Button variant="text" component={Link} to="/vendor" data-testid="number-vendors">
            Vendors
          </Button>
          <Button
            variant="outlined"
            startIcon={<UploadOutlined />}
            component={Link}
            to="/uploadnumber"
            data-testid="number-upload"
          >
            Upload CSV
          </Button>
          <Button
            variant="outlined"
            startIcon={<UserAddOutlined />}
            onClick={() => setGiving(true)}
            data-testid="number-give"
          >
            Give numbers
          </Button>
          <Button
            variant="contained"
            startIcon={<PlusOutlined />}
            onClick={() => setEditing({})}
            data-testid="number-add"
          >
            Add number
          </Button>
        </Stack>
      </PageTitle>
      <ListCard
        name="number"
        title="Tracking numbers"
        secondary={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <FilterSelect
              label="Status"
              value={filters.status}
              options={NUMBER_STATUSES}
              onChange={(v) => filterBy(v ? { status: v } : {})}
            />
            <SearchBox label="Search numbers" value={search} onChange={setSearch} />
          </Stack>
        }
        list={list}
        notice={notice}
        setNotice={setNotice}
        columns={[
          'Number',
          'Customer',
          'Campaign',
          ['Setup fee', 'right'],
          ['Monthly fee', 'right'],
          'Status',
          ['Action', 'right']
        ]}
        emptyText="No numbers found."
      >
        {rows.map((row) => (
          <TableRow hover key={row.id} data-testid="number-row" data-number={row.number}>
            <TableCell>{row.number}</TableCell>
            <TableCell data-testid="number-customer">{row.customer_name ?? 'Pool'}</TableCell>
            <TableCell>{row.campaign_name ?? '—'}</TableCell>
            <TableCell align="right">{formatBalance(row.setup_fee)}</TableCell>
            <TableCell align="right">{formatBalance(row.monthly_fee)}</TableCell>
            <TableCell>
              <TextField
                select
                size="small"
                variant="standard"
                value={row.status}
                disabled={busy}
                // The DOM's value is one of NUMBER_STATUSES.
                onChange={(e) => setStatus(row, e.target.value as NumberStatus)}
                slotProps={{
                  htmlInput: { 'aria-label': `Status of ${row.number}`, ...testId('number-status') }
                }}
              >
                {NUMBER_STATUSES.map((s) => (
                  <MenuItem key={s} value={s}>
                    {s}
                  </MenuItem>
                ))}
              </TextField>
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              <IconButton
                size="small"
                aria-label={`Fees of ${row.number}`}
                onClick={() => setEditing(row)}
                data-testid="number-edit"
              >
                <EditOutlined />
              </IconButton>
              {row.user_id && (
                <Tooltip title="Release to the pool">
                  <IconButton
                    size="small"
                    color="error"
                    aria-label={`Release ${row.number}`}
                    onClick={() => setReleasing(row)}
                    data-testid="number-release"
                  >
                    <RollbackOutlined />
                  </IconButton>
                </Tooltip>
              )}
            </TableCell>
          </TableRow>
        ))}
      </ListCard>
      <NumberDialog
        open={editing !== null}
        number={editing?.id ? editing : null}
        onClose={() => setEditing(null)}
        onSaved={saved}
      />
      {giving && (
        <NumberPoolDialog
          forCustomer
          onClose={() => setGiving(false)}
          onConfirm={async (ids, userId) => (await numbersGive({ body: { user_id: userId, number_ids: ids } })).data}
          onDone={(result) => {
            setGiving(false);
            saved(result.message);
          }}
        />
      )}
      <ConfirmDialog
        open={releasing !== null}
        title="Release number"
        text={
          releasing
            ? `Release ${releasing.number} from ${releasing.customer_name} to the pool? Its calls stop routing; fees paid stay paid.`
            : ''
        }
        confirmLabel="Release"
        busy={busy}
        onConfirm={release}
        onClose={() => setReleasing(null)}
      />
    </>
  );
}
