// Invoices: each month's statement (calls, number fees, top-ups, total, status), its detail and its
// PDF. The admin sees every customer's and can invoice a customer's finished month on demand.
import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Alert from '@mui/material/Alert';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { EyeOutlined, FilePdfOutlined, FileAddOutlined } from '@ant-design/icons';

import { SearchBox } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import { CustomerPicker } from '../../components/NamePicker';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { invoicesDetails, invoicesGenerate, invoicesPdf, type EnvelopeInvoiceDetail } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import useCustomerNames from '../../hooks/useCustomerNames';
import usePagedList, { type PageQuery } from '../../hooks/usePagedList';
import { formatBalance } from '../../utils/balance';
import { saveBlob } from '../../utils/download';
import { isAdmin } from '../../utils/roles';
import { getStoredUser } from '../../utils/storage';
import { lastMonth, validateMonth } from '../../utils/walletForm';
import InvoiceDetail, { type InvoiceRef } from './InvoiceDetail';

const fetchInvoices = ({ page, perpage, params }: PageQuery) =>
  call(invoicesDetails({ query: { page, perpage, params } }));

interface GenerateDialogProps {
  onClose: () => void;
  onDone: (answer: EnvelopeInvoiceDetail) => void;
}

function GenerateDialog({ onClose, onDone }: GenerateDialogProps) {
  const [userId, setUserId] = useState<number | ''>('');
  const [month, setMonth] = useState(lastMonth());
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  const go = async () => {
    const wrong = userId === '' ? 'Choose the customer to invoice' : validateMonth(month);
    setProblem(wrong);
    if (wrong || userId === '') return;
    setBusy(true);
    try {
      onDone((await invoicesGenerate({ body: { user_id: userId, month: month.trim() } })).data);
    } catch (err) {
      setProblem(failureMessage(err, 'The invoice could not be made.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth data-testid="invoice-generate-dialog">
      <DialogTitle>Invoice a finished month</DialogTitle>
      <DialogContent dividers>
        {problem && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="invoice-generate-error">
            {problem}
          </Alert>
        )}
        <Stack spacing={2}>
          <CustomerPicker value={userId} onChange={(id) => setUserId(id)} testid="invoice-customer" />
          <TextField
            size="small"
            type="month"
            label="Month"
            value={month}
            onChange={(e) => setMonth(e.target.value)}
            helperText="In the customer's time zone; it must be over"
            slotProps={{ htmlInput: { 'data-testid': 'invoice-month' }, inputLabel: { shrink: true } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={go} disabled={busy} data-testid="invoice-generate-go">
          Invoice
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default function InvoicePage() {
  const admin = isAdmin(getStoredUser());
  const list = usePagedList(fetchInvoices, { failure: 'Invoices could not be loaded.' });
  const { rows, setError, search, setSearch, reload } = list;
  const names = useCustomerNames(rows, admin);
  const [notice, setNotice] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const [generating, setGenerating] = useState(false);
  const [pdfBusy, setPdfBusy] = useState(false);

  const pdf = async (invoice: InvoiceRef) => {
    setPdfBusy(true);
    try {
      const { data } = await invoicesPdf({
        path: { id: invoice.id },
        responseType: 'blob',
        headers: { Accept: 'application/pdf' }
      });
      saveBlob(data, `${invoice.number}.pdf`);
    } catch (err) {
      setError(failureMessage(err, 'The PDF could not be downloaded.'));
    } finally {
      setPdfBusy(false);
    }
  };

  return (
    <>
      <PageTitle title="Invoice">
        {admin && (
          <Button
            variant="contained"
            startIcon={<FileAddOutlined />}
            onClick={() => setGenerating(true)}
            data-testid="invoice-generate"
          >
            Invoice a month
          </Button>
        )}
      </PageTitle>
      <ListCard
        name="invoice"
        title="Invoices"
        secondary={<SearchBox label="Search invoice numbers" value={search} onChange={setSearch} />}
        list={list}
        notice={notice}
        setNotice={setNotice}
        columns={[
          'Invoice',
          admin && 'Customer',
          'Period',
          ['Calls', 'right'],
          ['Number fees', 'right'],
          ['Top-ups', 'right'],
          ['Total', 'right'],
          'Status',
          ['Action', 'right']
        ]}
        emptyText="No invoices yet: each month's is made once the month is over."
      >
        {rows.map((row) => {
          const money = (v: string) => formatBalance(v, row.currency);
          return (
            <TableRow hover key={row.id} data-testid="invoice-row" data-number={row.number}>
              <TableCell>{row.number}</TableCell>
              {admin && <TableCell>{names[row.user_id] ?? '…'}</TableCell>}
              <TableCell>
                {row.period_start} to {row.period_end}
              </TableCell>
              <TableCell align="right">{money(row.calls_total)}</TableCell>
              <TableCell align="right">{money(row.fees_total)}</TableCell>
              <TableCell align="right">{money(row.topups_total)}</TableCell>
              <TableCell align="right">{money(row.total)}</TableCell>
              <TableCell>{row.status}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <Tooltip title="Details">
                  <IconButton
                    size="small"
                    aria-label={`Open ${row.number}`}
                    onClick={() => setOpen(row.id)}
                    data-testid="invoice-open"
                  >
                    <EyeOutlined />
                  </IconButton>
                </Tooltip>
                <Tooltip title="Download PDF">
                  <IconButton
                    size="small"
                    aria-label={`PDF of ${row.number}`}
                    onClick={() => pdf(row)}
                    disabled={pdfBusy}
                    data-testid="invoice-pdf"
                  >
                    <FilePdfOutlined />
                  </IconButton>
                </Tooltip>
              </TableCell>
            </TableRow>
          );
        })}
      </ListCard>
      {open && <InvoiceDetail id={open} onClose={() => setOpen(null)} onPdf={pdf} pdfBusy={pdfBusy} />}
      {generating && (
        <GenerateDialog
          onClose={() => setGenerating(false)}
          onDone={(answer) => {
            setGenerating(false);
            setError('');
            setNotice(answer.message);
            reload();
          }}
        />
      )}
    </>
  );
}
