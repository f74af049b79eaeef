// Targets: where buyers take calls (the admin sees every customer's). Add, edit, activate and
// delete; each row shows its buyer, trunk, caps and open hours at a glance.
import { useState } from 'react';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { PlusOutlined, WarningOutlined } from '@ant-design/icons';

import { DeleteConfirm, StatusAndActionCells } from '../../components/EntityRowParts';
import { SearchBox } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { targetsBulkStatus, targetsDetails, targetsRemove, targetsStatus, type TargetRow } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import useEntityActions, { type EntityCalls } from '../../hooks/useEntityActions';
import usePagedList, { listQuery, type PageQuery } from '../../hooks/usePagedList';
import { formatBalance } from '../../utils/balance';
import { isAdmin } from '../../utils/roles';
import { getStoredUser } from '../../utils/storage';
import { capsSummary, scheduleSummary } from '../../utils/targetForm';
import TargetDialog from './TargetDialog';

const fetchTargets = (query: PageQuery) => call(targetsDetails({ query: listQuery(query) }));

const targetCalls: EntityCalls = {
  setStatus: (id, status) => call(targetsStatus({ path: { id }, body: { status } })),
  remove: (id) => call(targetsRemove({ path: { id } }))
};

export default function TargetPage() {
  const admin = isAdmin(getStoredUser());
  const list = usePagedList(fetchTargets, {
    failure: 'Targets could not be loaded.'
  });
  const { rows, setError, search, setSearch, reload } = list;
  const actions = useEntityActions<TargetRow>(targetCalls, 'Target', {
    reload,
    setError
  });
  const { notice, setNotice, editing, setEditing, saved } = actions;
  // Rows ticked for a bulk pause or resume: one call for all of them, all or nothing.
  const [selected, setSelected] = useState<number[]>([]);
  const tick = (id: number, on: boolean) => setSelected((ids) => (on ? [...ids, id] : ids.filter((i) => i !== id)));
  const bulk = async (status: 'active' | 'inactive') => {
    try {
      const answer = (await targetsBulkStatus({ body: { ids: selected, status } })).data;
      setNotice(answer.message);
      setSelected([]);
      reload();
    } catch (err) {
      setError(failureMessage(err, 'The targets could not be changed.'));
    }
  };

  return (
    <>
      <PageTitle title="Target">
        {selected.length > 0 && (
          <>
            <Button
              variant="outlined"
              color="warning"
              onClick={() => void bulk('inactive')}
              data-testid="target-bulk-pause"
            >
              Pause {selected.length} selected
            </Button>
            <Button
              variant="outlined"
              color="success"
              onClick={() => void bulk('active')}
              data-testid="target-bulk-resume"
            >
              Resume {selected.length} selected
            </Button>
          </>
        )}
        <Button
          variant="contained"
          startIcon={<PlusOutlined />}
          onClick={() => setEditing({})}
          data-testid="target-add"
        >
          Add target
        </Button>
      </PageTitle>
      <ListCard
        name="target"
        title="Targets"
        secondary={<SearchBox label="Search targets" value={search} onChange={setSearch} />}
        list={list}
        notice={notice}
        setNotice={setNotice}
        columns={[
          // The tick boxes' column (ListCard leaves out an empty heading, which shifts the rest).
          'Select',
          'Name',
          'Buyer',
          admin && 'Customer',
          'Destination',
          'Trunk',
          'Caps',
          'Open hours',
          ['Payout', 'right'],
          'Active',
          ['Action', 'right']
        ]}
        emptyText="No targets found."
      >
        {rows.map((row) => (
          <TableRow hover key={row.id} data-testid="target-row" data-name={row.name}>
            <TableCell padding="checkbox">
              <Checkbox
                size="small"
                checked={selected.includes(row.id)}
                onChange={(e) => tick(row.id, e.target.checked)}
                slotProps={{ input: { 'aria-label': `Select ${row.name}` } }}
                data-testid="target-select"
              />
            </TableCell>
            <TableCell>{row.name}</TableCell>
            <TableCell>{row.buyer_name}</TableCell>
            {admin && <TableCell>{row.user_id}</TableCell>}
            <TableCell>{row.destination}</TableCell>
            <TableCell>
              {row.cannot_dial ? (
                <Tooltip title={row.cannot_dial}>
                  <Chip
                    size="small"
                    color="warning"
                    icon={<WarningOutlined />}
                    label="Not dialled: no trunk"
                    data-testid="target-cannot-dial"
                  />
                </Tooltip>
              ) : (
                row.trunk_name
              )}
            </TableCell>
            <TableCell data-testid="target-caps">{capsSummary(row)}</TableCell>
            <TableCell data-testid="target-hours">
              {scheduleSummary(row.schedule)}
              {Object.keys(row.schedule ?? {}).length > 0 && ` (${row.timezone})`}
            </TableCell>
            <TableCell align="right">{formatBalance(row.payout)}</TableCell>
            <StatusAndActionCells name="target" row={row} actions={actions} />
          </TableRow>
        ))}
      </ListCard>
      <TargetDialog
        open={editing !== null}
        target={editing?.id ? editing : null}
        admin={admin}
        onClose={() => setEditing(null)}
        onSaved={saved}
      />
      <DeleteConfirm
        noun="target"
        actions={actions}
        question={(row) => `Delete target ${row.name}? A target with calls can't be deleted; deactivate it instead.`}
      />
    </>
  );
}
