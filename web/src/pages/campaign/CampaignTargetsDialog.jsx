// Which targets take a campaign's calls, and in what order: lower priority rings first, weight
// shares the calls among targets of one priority. Assign, reorder and remove, each saved at once.
import { useCallback, useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DeleteOutlined, SaveOutlined } from '@ant-design/icons';

import DialogMessages from '../../components/DialogMessages';
import { SelectField } from '../../components/FormDialog';
import { EmptyRow } from '../../components/ListParts';
import {
  assignTarget,
  fetchAssignableTargets,
  fetchAssignedTargets,
  setTargetOrder,
  unassignTarget
} from '../../api/targets';
import { orderProblem } from '../../utils/campaignForm';

const small = (label, testid) => ({
  size: 'small',
  sx: { width: 90 },
  slotProps: { htmlInput: { 'aria-label': label, 'data-testid': testid } }
});

/** Mounted while shown, so each opening reads the campaign's targets afresh. */
export default function CampaignTargetsDialog({ campaign, onClose }) {
  const [assigned, setAssigned] = useState([]);
  const [assignable, setAssignable] = useState([]);
  const [edits, setEdits] = useState({}); // target_id -> {priority, weight} typed, not saved yet
  const [adding, setAdding] = useState({ target_id: '', priority: '1', weight: '1' });
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const id = campaign.id;

  const load = useCallback(async () => {
    try {
      const [now, free] = await Promise.all([fetchAssignedTargets(id), fetchAssignableTargets(id)]);
      setAssigned(now ?? []);
      setAssignable(free ?? []);
      setEdits({});
    } catch (err) {
      setError(err?.message || 'The targets could not be loaded.');
    }
  }, [id]);

  useEffect(() => {
    load();
  }, [load]);

  /** Check, send, say so, and show the campaign's targets again; true when saved. */
  const run = async (order, send, text) => {
    const problem = order ? orderProblem(order) : '';
    setNotice('');
    setError(problem);
    if (problem) return false;
    setBusy(true);
    try {
      await send();
      setNotice(text);
      await load();
      return true;
    } catch (err) {
      setError(err?.message || 'The change could not be saved.');
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = () => {
    const target = assignable.find((t) => String(t.id) === adding.target_id);
    if (!target) {
      setError('Choose a target to assign.');
      return;
    }
    const order = { target_id: target.id, priority: Number(adding.priority), weight: Number(adding.weight) };
    run(adding, () => assignTarget(id, order), `${target.name} now takes this campaign's calls.`).then(
      (ok) => ok && setAdding({ target_id: '', priority: '1', weight: '1' })
    );
  };

  const rowValues = (row) => edits[row.target_id] ?? { priority: String(row.priority), weight: String(row.weight) };
  const edit = (row, name, value) => setEdits((e) => ({ ...e, [row.target_id]: { ...rowValues(row), [name]: value } }));

  const saveOrder = (row) => {
    const v = rowValues(row);
    run(
      v,
      () => setTargetOrder(id, row.target_id, { priority: Number(v.priority), weight: Number(v.weight) }),
      `${row.name}: priority ${v.priority}, weight ${v.weight}.`
    );
  };

  const removeRow = (row) =>
    run(null, () => unassignTarget(id, row.target_id), `${row.name} no longer takes this campaign's calls.`);

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="md" fullWidth data-testid="links-dialog">
      <DialogTitle>Targets of {campaign.name}</DialogTitle>
      <DialogContent dividers>
        <DialogMessages error={error} notice={notice} testid="links" />
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Lower priority rings first; targets of one priority share the calls by weight
          {campaign.strategy === 'round_robin' ? ' (this campaign takes them in turn)' : ''}.
        </Typography>
        <Table size="small" data-testid="links-table">
          <TableHead>
            <TableRow>
              <TableCell>Target</TableCell>
              <TableCell>Destination</TableCell>
              <TableCell>Priority</TableCell>
              <TableCell>Weight</TableCell>
              <TableCell align="right">Action</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {assigned.map((row) => {
              const v = rowValues(row);
              const changed = Boolean(edits[row.target_id]);
              return (
                <TableRow key={row.target_id} data-testid="links-row" data-name={row.name}>
                  <TableCell>
                    {row.name}
                    {row.target_status !== 'active' && (
                      <Chip size="small" variant="light" color="warning" label="inactive" sx={{ ml: 1 }} />
                    )}
                  </TableCell>
                  <TableCell>{row.destination}</TableCell>
                  <TableCell>
                    <TextField
                      value={v.priority}
                      onChange={(e) => edit(row, 'priority', e.target.value)}
                      {...small(`Priority of ${row.name}`, 'links-priority')}
                    />
                  </TableCell>
                  <TableCell>
                    <TextField
                      value={v.weight}
                      onChange={(e) => edit(row, 'weight', e.target.value)}
                      {...small(`Weight of ${row.name}`, 'links-weight')}
                    />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <IconButton
                      size="small"
                      color="primary"
                      disabled={!changed || busy}
                      onClick={() => saveOrder(row)}
                      aria-label={`Save order of ${row.name}`}
                      data-testid="links-save"
                    >
                      <SaveOutlined />
                    </IconButton>
                    <IconButton
                      size="small"
                      color="error"
                      disabled={busy}
                      onClick={() => removeRow(row)}
                      aria-label={`Remove ${row.name}`}
                      data-testid="links-remove"
                    >
                      <DeleteOutlined />
                    </IconButton>
                  </TableCell>
                </TableRow>
              );
            })}
            {assigned.length === 0 && (
              <EmptyRow colSpan={5} text="No targets yet: calls to this campaign have nowhere to go." />
            )}
          </TableBody>
        </Table>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 3, alignItems: { sm: 'flex-start' } }}>
          <SelectField
            label="Assign a target"
            value={adding.target_id}
            onChange={(e) => setAdding((a) => ({ ...a, target_id: e.target.value }))}
            options={assignable.map((t) => [String(t.id), `${t.name} (${t.destination})`])}
            size="small"
            sx={{ minWidth: 260 }}
            helperText={assignable.length ? ' ' : 'No other active target of this customer'}
            disabled={assignable.length === 0}
          />
          <TextField
            label="Priority"
            value={adding.priority}
            onChange={(e) => setAdding((a) => ({ ...a, priority: e.target.value }))}
            {...small('New priority', 'links-new-priority')}
          />
          <TextField
            label="Weight"
            value={adding.weight}
            onChange={(e) => setAdding((a) => ({ ...a, weight: e.target.value }))}
            {...small('New weight', 'links-new-weight')}
          />
          <Button variant="contained" onClick={add} disabled={busy || assignable.length === 0} data-testid="links-add">
            Assign
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
