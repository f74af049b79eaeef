// "Where would a call go now, and why": the routing dry run for a tracking number and a caller,
// before a real call is made. Nothing is written.
import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

import TrailList from '../../components/TrailList';
import { call } from '../../api/client';
import { routingDryRun, type DryRunOut } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import { dispositionColor } from '../../utils/report';

interface DryRunDialogProps {
  open: boolean;
  timeZone: string | null | undefined;
  onClose: () => void;
}

export default function DryRunDialog({ open, timeZone, onClose }: DryRunDialogProps) {
  const [did, setDid] = useState('');
  const [caller, setCaller] = useState('');
  const [result, setResult] = useState<DryRunOut | null>(null);
  const [error, setError] = useState('');
  const [running, setRunning] = useState(false);

  const run = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError('');
    setResult(null);
    if (!did.trim() || !caller.trim()) {
      setError('Enter the tracking number and the caller.');
      return;
    }
    setRunning(true);
    try {
      setResult(await call(routingDryRun({ body: { did: did.trim(), caller: caller.trim() } })));
    } catch (err) {
      setError(failureMessage(err, 'The dry run failed.'));
    } finally {
      setRunning(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth data-testid="dryrun-dialog">
      <DialogTitle>Test routing</DialogTitle>
      <DialogContent dividers>
        <form onSubmit={run}>
          <Grid container spacing={2} sx={{ alignItems: 'center' }}>
            <Grid size={{ xs: 12, sm: 5 }}>
              <TextField
                size="small"
                fullWidth
                label="Tracking number"
                value={did}
                onChange={(e) => setDid(e.target.value)}
                slotProps={{ htmlInput: { 'data-testid': 'dryrun-did' } }}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 5 }}>
              <TextField
                size="small"
                fullWidth
                label="Caller"
                value={caller}
                onChange={(e) => setCaller(e.target.value)}
                slotProps={{ htmlInput: { 'data-testid': 'dryrun-caller' } }}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 2 }}>
              <Button type="submit" variant="contained" fullWidth disabled={running} data-testid="dryrun-run">
                Run
              </Button>
            </Grid>
          </Grid>
        </form>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="dryrun-error">
            {error}
          </Alert>
        )}
        {result && (
          <>
            <Divider sx={{ my: 2 }} />
            <div data-testid="dryrun-outcome">
              {result.disposition ? (
                <Typography>
                  The call would end as{' '}
                  <Chip
                    size="small"
                    variant="light"
                    color={dispositionColor(result.disposition)}
                    label={result.disposition}
                  />{' '}
                  at the <b>{result.stopped_at}</b> step.
                </Typography>
              ) : (
                <Typography>
                  The call would be dialled{result.ivr ? ' once the caller passes the IVR' : ''}, in this order:
                </Typography>
              )}
            </div>
            {result.candidates.length > 0 && (
              <Table size="small" sx={{ mt: 1 }} data-testid="dryrun-candidates">
                <TableHead>
                  <TableRow>
                    <TableCell>#</TableCell>
                    <TableCell>Target</TableCell>
                    <TableCell>Number</TableCell>
                    <TableCell>Trunk</TableCell>
                    <TableCell align="right">Priority</TableCell>
                    <TableCell align="right">Weight</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {result.candidates.map((c, i) => (
                    <TableRow key={c.target_id} data-testid="dryrun-candidate">
                      <TableCell>{i + 1}</TableCell>
                      <TableCell>{c.name}</TableCell>
                      <TableCell>{c.destination}</TableCell>
                      <TableCell>{c.trunk?.name ?? '—'}</TableCell>
                      <TableCell align="right">{c.priority}</TableCell>
                      <TableCell align="right">{c.weight}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            {(result.bids?.length ?? 0) > 0 && (
              <>
                <Typography variant="h6" sx={{ mt: 2, mb: 1 }}>
                  Bids asked for
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  Each bidder was pinged with <code>test: true</code>; the winner&apos;s post is shown, not sent.
                </Typography>
                <Table size="small" sx={{ mt: 1 }} data-testid="dryrun-bids">
                  <TableHead>
                    <TableRow>
                      <TableCell>Target</TableCell>
                      <TableCell>Request</TableCell>
                      <TableCell>Outcome</TableCell>
                      <TableCell align="right">ms</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {(result.bids ?? []).map((b) => (
                      <TableRow key={`${b.phase}-${b.target_id}`} data-testid="dryrun-bid" data-phase={b.phase}>
                        <TableCell>{b.name}</TableCell>
                        <TableCell>
                          {b.phase} {b.url}
                          <Typography component="pre" variant="caption" sx={{ m: 0, whiteSpace: 'pre-wrap' }}>
                            {JSON.stringify(b.request)}
                          </Typography>
                        </TableCell>
                        <TableCell>{b.reason}</TableCell>
                        <TableCell align="right">{b.latency_ms ?? '—'}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </>
            )}
            <Typography variant="h6" sx={{ mt: 2, mb: 1 }}>
              Why
            </Typography>
            <TrailList trail={result.trail} timeZone={timeZone ?? 'UTC'} />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
