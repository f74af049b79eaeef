// One call in full: what happened, who it reached, what it cost, what was said, and its routing
// trail (why).
import { useState } from 'react';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { CloseOutlined } from '@ant-design/icons';

import type { CallReportRow } from '../../client';
import DeliveryLog from '../../components/DeliveryLog';
import CallTranscript from '../../components/CallTranscript';
import RecordingPlayer, { type Seek } from '../../components/RecordingPlayer';
import TrailList from '../../components/TrailList';
import CallAttribution from './CallAttribution';

import { RATE_PLACES, formatBalance } from '../../utils/balance';
import { formatSeconds } from '../../utils/time';
import { formatDateTime } from '../../utils/time';
import DispositionChip from '../../components/DispositionChip';
import { originLabel } from '../../utils/origin';

interface CallDetailProps {
  call: CallReportRow | null;
  timeZone: string | null | undefined;
  onClose: () => void;
}

export default function CallDetail({ call, timeZone, onClose }: CallDetailProps) {
  const [seek, setSeek] = useState<Seek | null>(null); // where a clicked transcript line plays from
  const facts: [string, string][] = call
    ? [
        ['Started', formatDateTime(call.started_at, timeZone, { seconds: true, zone: true })],
        [
          'Connected',
          call.connected_at ? formatDateTime(call.connected_at, timeZone, { seconds: true, zone: true }) : '—'
        ],
        ['Ended', call.ended_at ? formatDateTime(call.ended_at, timeZone, { seconds: true, zone: true }) : '—'],
        ['Caller', call.caller],
        [
          'Caller from',
          `${originLabel({ country: call.caller_country, region: call.caller_region })}${call.caller_line_type ? ` (${call.caller_line_type} line)` : ''}`
        ],
        ['Tracking number', call.did],
        ['Customer', call.customer_name ?? '—'],
        ['Campaign', call.campaign_name ?? '—'],
        ['Target', call.target_name ? `${call.target_name} (${call.destination ?? '—'})` : '—'],
        ['Buyer', call.buyer_name ?? '—'],
        ['Trunk', call.trunk_name ?? '—'],
        [
          'Duration / billed',
          call.ended_at ? `${formatSeconds(call.duration)} / ${formatSeconds(call.billsec)}` : 'in progress'
        ],
        ['Hung up by', call.hangup_by ?? '—'],
        ['Cost', call.cost === null ? `— (${call.rating_status})` : formatBalance(call.cost, undefined, RATE_PLACES)],
        ['Payout', formatBalance(call.payout)],
        ['Call id', call.linkedid]
      ]
    : [];
  return (
    <Drawer
      anchor="right"
      open={Boolean(call)}
      onClose={onClose}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 520 } } } }}
    >
      {call && (
        <Box sx={{ p: 2.5 }} data-testid="call-detail">
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
            <Typography variant="h5">Call from {call.caller}</Typography>
            <IconButton onClick={onClose} aria-label="Close call detail">
              <CloseOutlined />
            </IconButton>
          </Stack>
          <DispositionChip call={call} data-testid="call-detail-disposition" />
          <Table size="small" sx={{ mt: 1.5 }}>
            <TableBody>
              {facts.map(([label, value]) => (
                <TableRow key={label}>
                  <TableCell sx={{ color: 'text.secondary', width: 170 }}>{label}</TableCell>
                  <TableCell>{value}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {call.recording && (
            <Box sx={{ mt: 2 }}>
              <RecordingPlayer key={call.id} callId={call.id} seek={seek} />
              <Typography variant="h6" sx={{ mt: 2, mb: 1 }}>
                What was said
              </Typography>
              <CallTranscript key={call.id} callId={call.id} onSeek={(at) => setSeek({ at })} />
            </Box>
          )}
          <CallAttribution key={call.id} callId={call.id} timeZone={timeZone ?? 'UTC'} />
          <Divider sx={{ my: 2 }} />
          <Typography variant="h6" sx={{ mb: 1 }}>
            Routing trail
          </Typography>
          <TrailList trail={call.trail} timeZone={timeZone ?? 'UTC'} />
          <Divider sx={{ my: 2 }} />
          <DeliveryLog key={call.id} callId={call.id} />
        </Box>
      )}
    </Drawer>
  );
}
