// A call's webhook deliveries (docs/webhooks.md): each event sent to each webhook, how its last
// try went (HTTP status, time, the start of the answer, tries), and "Send again".
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';

import { call } from '../api/client';
import { webhooksDeliveries, webhooksResend, type DeliveryOut, type DeliveryStatus } from '../client';
import { failureMessage } from '../hooks/apiFailure';

const COLORS: Record<DeliveryStatus, ChipProps['color']> = {
  delivered: 'success',
  pending: 'warning',
  failed: 'error'
};

export default function DeliveryLog({ callId }: { callId: number }) {
  const [rows, setRows] = useState<DeliveryOut[] | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  // Bumped to read the deliveries again (after "Send again").
  const [asked, setAsked] = useState(0);

  useEffect(() => {
    let alive = true;
    call(webhooksDeliveries({ path: { id: callId } }))
      .then((found) => alive && setRows(found))
      .catch((err: unknown) => alive && setError(failureMessage(err, 'The webhook deliveries could not be loaded.')));
    return () => {
      alive = false;
    };
  }, [callId, asked]);

  const again = async (row: DeliveryOut) => {
    setError('');
    try {
      await call(webhooksResend({ path: { id: row.id } }));
      setNotice(`The ${row.event} event is being sent again.`);
      setAsked((n) => n + 1);
    } catch (err) {
      setError(failureMessage(err, 'The event could not be sent again.'));
    }
  };

  if (rows === null && !error) return null;
  return (
    <>
      <Typography variant="h6" sx={{ mb: 1 }}>
        Webhooks
      </Typography>
      {error && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {error}
        </Alert>
      )}
      {notice && (
        <Alert severity="success" sx={{ mb: 1 }} data-testid="delivery-notice">
          {notice}
        </Alert>
      )}
      {rows && rows.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          No webhook was told of this call.
        </Typography>
      )}
      {rows && rows.length > 0 && (
        <Table size="small" data-testid="delivery-log">
          <TableHead>
            <TableRow>
              <TableCell>Event</TableCell>
              <TableCell>Status</TableCell>
              <TableCell align="right">Tries</TableCell>
              <TableCell>Answer</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id} data-testid="delivery-row" data-event={row.event}>
                <TableCell>{row.event}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    variant="light"
                    color={COLORS[row.status]}
                    label={row.status}
                    data-testid="delivery-status"
                  />
                </TableCell>
                <TableCell align="right">{row.attempts}</TableCell>
                <TableCell sx={{ wordBreak: 'break-all', maxWidth: 180 }}>
                  {row.status_code ? `HTTP ${row.status_code}` : (row.error ?? '—')}
                  {row.latency_ms !== null && ` · ${row.latency_ms} ms`}
                  {row.response && (
                    <Typography variant="caption" component="div" color="text.secondary">
                      {row.response.slice(0, 120)}
                    </Typography>
                  )}
                </TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    onClick={() => again(row)}
                    disabled={row.status === 'pending'}
                    data-testid="delivery-resend"
                  >
                    Send again
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}
