// Which targets take a campaign's calls, and in what order: lower priority rings first, weight
// shares the calls among targets of one priority. Assign, reorder and remove, each saved at once
// (the campaign page's Targets tab).
import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
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
import { call } from '../../api/client';
import {
  linksAdd,
  linksPriority,
  linksRemove,
  targetsAssignable,
  targetsAssigned,
  type AssignedTarget,
  type CampaignOut,
  type TargetOut
} from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import { orderProblem } from '../../utils/campaignForm';

/** A target's order as typed: priority and weight, as text. */
interface OrderText {
  priority: string;
  weight: string;
}

const small = (label: string, testid: string) => ({
  size: 'small' as const,
  sx: { width: 90 },
  slotProps: { htmlInput: { 'aria-label': label, 'data-testid': testid } }
});

/** Mounted while shown, so each showing reads the campaign's targets afresh. */
interface CampaignTargetsPanelProps {
  campaign: Pick<CampaignOut, 'id' | 'strategy'>;
}

export default function CampaignTargetsPanel({ campaign }: CampaignTargetsPanelProps) {
  const [assigned, setAssigned] = useState<AssignedTarget[]>([]);
  const [assignable, setAssignable] = useState<TargetOut[]>([]);
  const [edits, setEdits] = useState<Record<number, OrderText>>({}); // target_id -> {priority, weight} typed, not saved yet
  const [adding, setAdding] = useState({ target_id: '', priority: '1', weight: '1' });
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  // Bumped to read the campaign's targets again after a change.
  const [asked, setAsked] = useState(0);
  const id = campaign.id;

  useEffect(() => {
    let alive = true;
    Promise.all([
      call(targetsAssigned({ query: { campaign_id: id } })),
      call(targetsAssignable({ body: { campaign_id: id } }))
    ])
      .then(([now, free]) => {
        if (!alive) return;
        setAssigned(now ?? []);
        setAssignable(free ?? []);
        setEdits({});
      })
      .catch((err: unknown) => alive && setError(failureMessage(err, 'The targets could not be loaded.')));
    return () => {
      alive = false;
    };
  }, [id, asked]);

  /** Check, send, say so, and show the campaign's targets again; true when saved. */
  const run = async (order: OrderText | null, send: () => Promise<unknown>, text: string) => {
    const problem = order ? orderProblem(order) : '';
    setNotice('');
    setError(problem);
    if (problem) return false;
    setBusy(true);
    try {
      await send();
      setNotice(text);
      setAsked((n) => n + 1);
      return true;
    } catch (err) {
      setError(failureMessage(err, 'The change could not be saved.'));
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
    void run(
      adding,
      () => call(linksAdd({ body: { campaign_id: id, targets: [order] } })),
      `${target.name} now takes this campaign's calls.`
    ).then((ok) => ok && setAdding({ target_id: '', priority: '1', weight: '1' }));
  };

  const rowValues = (row: AssignedTarget): OrderText =>
    edits[row.target_id] ?? { priority: String(row.priority), weight: String(row.weight) };
  const edit = (row: AssignedTarget, name: keyof OrderText, value: string) =>
    setEdits((e) => ({ ...e, [row.target_id]: { ...rowValues(row), [name]: value } }));

  const saveOrder = (row: AssignedTarget) => {
    const v = rowValues(row);
    void run(
      v,
      () =>
        call(
          linksPriority({
            path: { target_id: row.target_id },
            body: { campaign_id: id, priority: Number(v.priority), weight: Number(v.weight) }
          })
        ),
      `${row.name}: priority ${v.priority}, weight ${v.weight}.`
    );
  };

  const removeRow = (row: AssignedTarget) =>
    run(
      null,
      () => call(linksRemove({ body: { campaign_id: id, target_id: row.target_id } })),
      `${row.name} no longer takes this campaign's calls.`
    );

  return (
    <>
      <DialogMessages error={error} notice={notice} testid="links" />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Lower priority rings first; targets of one priority share the calls by weight
        {campaign.strategy === 'round_robin' ? ' (this campaign takes them in turn)' : ''}.
      </Typography>
      <Box sx={{ overflowX: 'auto' }}>
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
      </Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 3, alignItems: { sm: 'flex-start' } }}>
        <SelectField
          label="Assign a target"
          value={adding.target_id}
          onChange={(e) => setAdding((a) => ({ ...a, target_id: e.target.value }))}
          options={assignable.map((t) => [String(t.id), `${t.name} (${t.destination})`] as const)}
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
    </>
  );
}
