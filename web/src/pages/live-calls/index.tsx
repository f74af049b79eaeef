// Calls in progress, as the live socket reports them (admin: all; customer and buyer: their own),
// with a hang-up per call: a table on wide screens, a card per call on a phone (the Hang up button
// in reach, no sideways scrolling).
import { useEffect, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { PhoneOutlined } from '@ant-design/icons';

import ConfirmDialog from '../../components/ConfirmDialog';
import { EmptyRow, ListMessages } from '../../components/ListParts';
import MainCard from '../../components/MainCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { call as send } from '../../api/client';
import { liveHangUp } from '../../client';
import { failureOf } from '../../hooks/apiFailure';
import { useLive, type LiveCallRow } from '../../store/live';
import { formatDateTime, timeColumn } from '../../utils/time';
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
  customer_name: string | null;
  campaign_name: string | null;
  buyer_name: string | null;
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
    customer_name: asText(row.customer_name),
    campaign_name: asText(row.campaign_name),
    buyer_name: asText(row.buyer_name),
    started_at: asText(row.started_at),
    connected_at: asText(row.connected_at)
  };
}

/** The call's state as a chip. */
function StateChip({ state }: { state: string }) {
  return <Chip size="small" variant="light" color={callStateColor(state)} label={STATE_LABEL[state] ?? state} />;
}

/** One call on a phone: who calls whom, for whom, since when, and the Hang up button in reach. */
function CallCard({
  call,
  lines,
  duration,
  hangUp
}: {
  call: LiveCallView;
  lines: ReactNode[];
  duration: string;
  hangUp: ReactNode;
}) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="live-row" data-caller={call.caller} data-state={call.state}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <StateChip state={call.state} />
        <Typography
          variant="h6"
          component="span"
          data-testid="live-duration"
          sx={{ fontVariantNumeric: 'tabular-nums' }}
        >
          {duration}
        </Typography>
      </Stack>
      <Typography variant="subtitle1" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
        {call.caller} → {call.did}
      </Typography>
      {lines.map((line, i) => (
        <Typography key={i} variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {line}
        </Typography>
      ))}
      <Box sx={{ mt: 1 }}>{hangUp}</Box>
    </Paper>
  );
}

export default function LiveCallsPage() {
  const calls = useLive((s) => s.livecalls);
  const user = getStoredUser();
  const admin = isAdmin(user);
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
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
  const columns = [
    'State',
    'Caller',
    'Tracking number',
    ...(admin ? ['Customer'] : []),
    'Campaign',
    'Target',
    'Buyer',
    timeColumn('Started', user?.timezone),
    'Duration',
    'Action'
  ];
  const hangUpButton = (call: LiveCallView, wide: boolean) => (
    <Button
      size={wide ? 'medium' : 'small'}
      fullWidth={wide}
      color="error"
      variant={wide ? 'outlined' : 'dashed'}
      startIcon={<PhoneOutlined rotate={135} />}
      onClick={() => setEnding(call)}
      data-testid="live-hangup"
    >
      Hang up
    </Button>
  );
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
        {phone ? (
          <Stack spacing={1.5} sx={{ p: 1.5 }} data-testid="live-cards">
            {rows.map((call) => (
              <CallCard
                key={call.linkedid}
                call={call}
                duration={callDuration(call, now)}
                lines={[
                  `Target ${call.target_name ?? '—'}${call.buyer_name ? ` · buyer ${call.buyer_name}` : ''}`,
                  `Campaign ${call.campaign_name ?? '—'}${admin ? ` · ${call.customer_name ?? '—'}` : ''}`,
                  `Started ${call.started_at ? formatDateTime(call.started_at, user?.timezone, { seconds: true, zone: true }) : '—'}`
                ]}
                hangUp={hangUpButton(call, true)}
              />
            ))}
            {rows.length === 0 && (
              <Typography color="text.secondary" align="center">
                No calls in progress.
              </Typography>
            )}
          </Stack>
        ) : (
          <TableContainer>
            <Table size="small" data-testid="live-table">
              <TableHead>
                <TableRow>
                  {columns.map((label) => (
                    <TableCell key={label} align={label === 'Duration' || label === 'Action' ? 'right' : undefined}>
                      {label}
                    </TableCell>
                  ))}
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
                      <StateChip state={call.state} />
                    </TableCell>
                    <TableCell>{call.caller}</TableCell>
                    <TableCell>{call.did}</TableCell>
                    {admin && <TableCell data-testid="live-customer">{call.customer_name ?? '—'}</TableCell>}
                    <TableCell data-testid="live-campaign">{call.campaign_name ?? '—'}</TableCell>
                    <TableCell>{call.target_name ?? '—'}</TableCell>
                    <TableCell data-testid="live-buyer">{call.buyer_name ?? '—'}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {formatDateTime(call.started_at, user?.timezone, { seconds: true })}
                    </TableCell>
                    <TableCell align="right" data-testid="live-duration">
                      {callDuration(call, now)}
                    </TableCell>
                    <TableCell align="right">{hangUpButton(call, false)}</TableCell>
                  </TableRow>
                ))}
                {rows.length === 0 && <EmptyRow colSpan={columns.length} text="No calls in progress." />}
              </TableBody>
            </Table>
          </TableContainer>
        )}
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
