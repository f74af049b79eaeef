// Calls in progress, as the live socket reports them (admin: all; customer and buyer: their own),
// with a hang-up per call.
import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { PhoneOutlined } from '@ant-design/icons';

import ConfirmDialog from '../../components/ConfirmDialog';
import { EmptyRow, ListMessages } from '../../components/ListParts';
import MainCard from '../../components/MainCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { call as send } from '../../api/client';
import { liveHangUp } from '../../client';
import { failureOf } from '../../hooks/apiFailure';
import { useLive, type LiveCallRow } from '../../store/live';
import { formatClock } from '../../utils/clock';
import { callDuration, newestFirst } from '../../utils/liveCalls';
import { isAdmin } from '../../utils/roles';
import { callStateColor } from '../../utils/status';
import { getStoredUser } from '../../utils/storage';
import { CLOCK_TICK_MS } from '../../config';

const STATE_LABEL: Record<string, string> = { ringing: 'Ringing', ivr: 'IVR', connected: 'Talking' };

/** A feed field as text, or null when absent. */
const asText = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;

/** The fields of a live call the page shows: the feed's rows are loose objects (LiveOut). */
interface LiveCallView {
  linkedid: string;
  caller: string;
  did: string;
  state: string;
  target_name: string | null;
  user_id: string | null;
  started_at: string | null;
  connected_at: string | null;
}

function viewOf(row: LiveCallRow): LiveCallView {
  return {
    linkedid: asText(row.linkedid) ?? '',
    caller: asText(row.caller) ?? '',
    did: asText(row.did) ?? '',
    state: asText(row.state) ?? '',
    target_name: asText(row.target_name),
    user_id: asText(row.user_id),
    started_at: asText(row.started_at),
    connected_at: asText(row.connected_at)
  };
}

export default function LiveCallsPage() {
  const calls = useLive((s) => s.livecalls);
  const user = getStoredUser();
  const admin = isAdmin(user);
  const [now, setNow] = useState(() => Date.now());
  const [ending, setEnding] = useState<LiveCallView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');

  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(t);
  }, []);

  const hangUp = async () => {
    if (!ending) return;
    setBusy(true);
    setError('');
    try {
      // {linkedid, ended}: ended is false while the PBX is still tearing the call down.
      const result = await send(liveHangUp({ body: { linkedid: ending.linkedid } }));
      setNotice(
        result?.ended
          ? `Call from ${ending.caller} hung up.`
          : `Hang-up requested; the call from ${ending.caller} is ending.`
      );
    } catch (err) {
      setNotice('');
      const failure = failureOf(err);
      setError(
        failure.code === 404 ? 'That call has already ended.' : failure.message || 'The call could not be hung up.'
      );
    } finally {
      setBusy(false);
      setEnding(null);
    }
  };

  const rows = newestFirst(calls.map(viewOf));
  return (
    <>
      <PageTitle title="Live Calls" />
      <MainCard content={false} title={`Calls in progress (${rows.length})`}>
        <ListMessages
          name="live"
          error={error}
          notice={notice}
          onCloseError={() => setError('')}
          onCloseNotice={() => setNotice('')}
        />
        <TableContainer>
          <Table size="small" data-testid="live-table">
            <TableHead>
              <TableRow>
                <TableCell>State</TableCell>
                <TableCell>Caller</TableCell>
                <TableCell>Tracking number</TableCell>
                <TableCell>Target</TableCell>
                {admin && <TableCell>Customer</TableCell>}
                <TableCell>Started</TableCell>
                <TableCell align="right">Duration</TableCell>
                <TableCell align="right">Action</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((call) => (
                <TableRow
                  hover
                  key={call.linkedid}
                  data-testid="live-row"
                  data-caller={call.caller}
                  data-state={call.state}
                >
                  <TableCell>
                    <Chip
                      size="small"
                      variant="light"
                      color={callStateColor(call.state)}
                      label={STATE_LABEL[call.state] ?? call.state}
                    />
                  </TableCell>
                  <TableCell>{call.caller}</TableCell>
                  <TableCell>{call.did}</TableCell>
                  <TableCell>{call.target_name ?? '—'}</TableCell>
                  {admin && <TableCell>{call.user_id ?? '—'}</TableCell>}
                  <TableCell>
                    {call.started_at ? formatClock(Date.parse(call.started_at), user?.timezone) : '—'}
                  </TableCell>
                  <TableCell align="right" data-testid="live-duration">
                    {callDuration(call, now)}
                  </TableCell>
                  <TableCell align="right">
                    <Button
                      size="small"
                      color="error"
                      variant="dashed"
                      startIcon={<PhoneOutlined rotate={135} />}
                      onClick={() => setEnding(call)}
                      data-testid="live-hangup"
                    >
                      Hang up
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
              {rows.length === 0 && <EmptyRow colSpan={admin ? 8 : 7} text="No calls in progress." />}
            </TableBody>
          </Table>
        </TableContainer>
      </MainCard>
      <ConfirmDialog
        open={ending !== null}
        title="Hang up call"
        text={ending ? `Hang up the call from ${ending.caller} to ${ending.did}? Both sides are disconnected.` : ''}
        confirmLabel="Hang up"
        busy={busy}
        onConfirm={hangUp}
        onClose={() => setEnding(null)}
      />
    </>
  );
}
