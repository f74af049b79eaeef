// One invoice: its period, balances, totals and lines (calls per destination, number fees,
// credits), and its PDF. Mounted while shown.
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { FilePdfOutlined } from '@ant-design/icons';

import { call } from '../../api/client';
import { invoicesOne, type InvoiceDetail as InvoiceDetailOut } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import { formatBalance } from '../../utils/balance';
import { typeLabel } from '../../utils/walletForm';

/** One line of an invoice: its kind and the fields of that kind (calls, a number's fee, a credit). */
type InvoiceLine = InvoiceDetailOut['lines'][number];

/** What a line is about, whatever its kind. */
export function lineText(line: InvoiceLine): string {
  switch (line.kind) {
    case 'calls':
      return `Calls to ${line.prefix}${line.country ? ` (${line.country})` : ''}: ${line.calls} calls, ${line.minutes} min`;
    case 'number_setup':
    case 'number_monthly':
      return `${typeLabel(line.kind)} ${line.number}${line.count > 1 ? ` × ${line.count}` : ''}`;
    default:
      return `${typeLabel(line.kind)} ${line.date} ${line.description}`.trim();
  }
}

/** What a PDF is asked for by. */
export interface InvoiceRef {
  id: number;
  number: string;
}

interface InvoiceDetailProps {
  id: number;
  onClose: () => void;
  onPdf: (invoice: InvoiceRef) => void;
  pdfBusy: boolean;
}

export default function InvoiceDetail({ id, onClose, onPdf, pdfBusy }: InvoiceDetailProps) {
  const [invoice, setInvoice] = useState<InvoiceDetailOut | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    call(invoicesOne({ path: { id } }))
      .then(setInvoice)
      .catch((err: unknown) => setError(failureMessage(err, 'The invoice could not be loaded.')));
  }, [id]);

  const money = (v: string | number | null) => formatBalance(v, invoice?.currency);
  const facts: [string, string][] = invoice
    ? [
        ['Period', `${invoice.period_start} to ${invoice.period_end}`],
        ['Opening balance', money(invoice.opening_balance)],
        ['Calls', money(invoice.calls_total)],
        ['Number fees', money(invoice.fees_total)],
        ['Top-ups', money(invoice.topups_total)],
        ['Total charges', money(invoice.total)],
        ['Closing balance', money(invoice.closing_balance)],
        ['Status', invoice.status]
      ]
    : [];
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="invoice-detail">
      <DialogTitle>Invoice {invoice?.number ?? ''}</DialogTitle>
      <DialogContent dividers>
        {!invoice && !error && <LinearProgress />}
        {error && <Alert severity="error">{error}</Alert>}
        {invoice && (
          <>
            <Grid container spacing={1.5} sx={{ mb: 2 }}>
              {facts.map(([label, value]) => (
                <Grid key={label} size={{ xs: 6, sm: 3 }}>
                  <Typography variant="caption" color="text.secondary">
                    {label}
                  </Typography>
                  <Typography variant="body1" data-testid={`invoice-${label.toLowerCase().replace(/ /g, '-')}`}>
                    {value}
                  </Typography>
                </Grid>
              ))}
            </Grid>
            <Table size="small" data-testid="invoice-lines">
              <TableHead>
                <TableRow>
                  <TableCell>Line</TableCell>
                  <TableCell align="right">Amount</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {invoice.lines.map((line, i) => (
                  <TableRow key={i}>
                    <TableCell>{lineText(line)}</TableCell>
                    <TableCell align="right">{money(line.amount)}</TableCell>
                  </TableRow>
                ))}
                {invoice.lines.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={2} align="center" sx={{ color: 'text.secondary' }}>
                      Nothing was charged or credited in this period.
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        <Button
          variant="contained"
          startIcon={<FilePdfOutlined />}
          disabled={!invoice || pdfBusy}
          onClick={() => invoice && onPdf(invoice)}
          data-testid="invoice-detail-pdf"
        >
          Download PDF
        </Button>
      </DialogActions>
    </Dialog>
  );
}
