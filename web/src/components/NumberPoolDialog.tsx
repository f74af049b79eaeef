// Pick numbers from the unassigned pool: a customer takes them, the admin gives them to a
// customer. Each costs its setup fee now (all or nothing) and its monthly fee from then on.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

import { EmptyRow, SearchBox } from './ListParts';
import { call } from '../api/client';
import { numbersPool, type NumberOut } from '../client';
import { failureMessage } from '../hooks/apiFailure';
import usePagedList, { type PageQuery } from '../hooks/usePagedList';
import { formatBalance } from '../utils/balance';
import { setupTotal } from '../utils/numberForm';

/** The unassigned pool, a page of it (customers see the active numbers they can take). */
const fetchPool = ({ page, perpage, params }: PageQuery) => call(numbersPool({ query: { page, perpage, params } }));

interface NumberPoolDialogProps<Result> {
  forCustomer?: boolean;
  onClose: () => void;
  onDone: (result: Result) => void;
  onConfirm: (ids: number[], userId: number) => Promise<Result>;
}

/**
 * Mounted while shown (each opening starts afresh). `onConfirm(ids, userId)` sends the request
 * and resolves to what `onDone` gets (it throws the API's error); `forCustomer` asks the admin
 * which customer gets them.
 */
export default function NumberPoolDialog<Result>({
  forCustomer = false,
  onClose,
  onDone,
  onConfirm
}: NumberPoolDialogProps<Result>) {
  const { rows, loading, error, search, setSearch, pagination } = usePagedList(fetchPool, {
    failure: 'The pool could not be loaded.'
  });
  const [picked, setPicked] = useState(new Map<number, NumberOut>()); // id -> row, kept across pages
  const [userId, setUserId] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  const flip = (row: NumberOut) =>
    setPicked((m) => {
      const next = new Map(m);
      if (next.has(row.id)) next.delete(row.id);
      else next.set(row.id, row);
      return next;
    });

  const chosen = [...picked.values()];
  const total = setupTotal(chosen);

  const confirm = async () => {
    if (forCustomer && !/^\d+$/.test(userId.trim())) {
      setProblem('Customer ID is required');
      return;
    }
    setBusy(true);
    setProblem('');
    try {
      onDone(await onConfirm([...picked.keys()], Number(userId)));
    } catch (err) {
      setProblem(failureMessage(err, 'The numbers could not be assigned.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="md" fullWidth data-testid="pool-dialog">
      <DialogTitle>{forCustomer ? 'Give numbers to a customer' : 'Get tracking numbers'}</DialogTitle>
      <DialogContent dividers>
        {(problem || error) && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="pool-error">
            {problem || error}
          </Alert>
        )}
        <Stack direction="row" spacing={2} sx={{ mb: 1, alignItems: 'center' }}>
          <SearchBox label="Search the pool" value={search} onChange={setSearch} />
          {forCustomer && (
            <TextField
              size="small"
              label="Customer ID"
              value={userId}
              onChange={(e) => setUserId(e.target.value)}
              slotProps={{ htmlInput: { 'data-testid': 'pool-user_id' } }}
            />
          )}
        </Stack>
        <Table size="small" data-testid="pool-table">
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox" />
              <TableCell>Number</TableCell>
              <TableCell align="right">Setup fee</TableCell>
              <TableCell align="right">Monthly fee</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow
                key={row.id}
                hover
                onClick={() => flip(row)}
                sx={{ cursor: 'pointer' }}
                data-testid="pool-row"
                data-number={row.number}
              >
                <TableCell padding="checkbox">
                  <Checkbox
                    size="small"
                    checked={picked.has(row.id)}
                    slotProps={{ input: { 'aria-label': `Pick ${row.number}` } }}
                  />
                </TableCell>
                <TableCell>{row.number}</TableCell>
                <TableCell align="right">{formatBalance(row.setup_fee)}</TableCell>
                <TableCell align="right">{formatBalance(row.monthly_fee)}</TableCell>
              </TableRow>
            ))}
            {!loading && rows.length === 0 && <EmptyRow colSpan={4} text="No free numbers in the pool." />}
          </TableBody>
        </Table>
        <TablePagination {...pagination} />
        <Typography variant="body2" data-testid="pool-summary">
          {chosen.length} number(s) picked; setup fees {formatBalance(total)} charged now
          {forCustomer ? " to the customer's wallet" : ' to your wallet'}.
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={confirm} disabled={busy || chosen.length === 0} data-testid="pool-confirm">
          {forCustomer ? `Give ${chosen.length}` : `Take ${chosen.length}`}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
