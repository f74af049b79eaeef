// Top-up (admin): credit a customer's wallet (the customer chosen by name, an amount, a reference
// and a note), see the new balance, and the recent top-ups below. Each form carries a fresh
// reference, so sending it twice credits once; the server's "already credited" is shown as such.
import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { WalletOutlined } from '@ant-design/icons';

import ConfirmDialog from '../../components/ConfirmDialog';
import { SearchBox } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import MainCard from '../../components/MainCard';
import { CustomerPicker } from '../../components/NamePicker';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { topupAdd, topupDetails, type UserBrief, type WalletTransactionOut } from '../../client';
import useCustomerNames from '../../hooks/useCustomerNames';
import useFormDialog from '../../hooks/useFormDialog';
import usePagedList, { type PageQuery } from '../../hooks/usePagedList';
import { formatBalance, moneyPlaces } from '../../utils/balance';
import { formatDateTime, timeColumn } from '../../utils/time';
import { getStoredUser } from '../../utils/storage';
import { emptyTopup, topupBody, validateTopup } from '../../utils/topupForm';

/** Recent top-ups, a page of them. */
const fetchTopups = ({ page, perpage, params }: PageQuery) => call(topupDetails({ query: { page, perpage, params } }));

/** What the last credit did: a new credit, or one the reference had already made. */
interface Outcome {
  again: boolean;
  row: WalletTransactionOut;
  name: string | undefined;
}

export default function TopupPage() {
  const timezone = getStoredUser()?.timezone;
  const list = usePagedList(fetchTopups, { failure: 'Top-ups could not be loaded.' });
  const places = moneyPlaces(list.rows.flatMap((r) => [r.amount, r.balance_after]));
  const names = useCustomerNames(list.rows);
  const { values, set, errors, message, saving, field, reset, submit } = useFormDialog('topup', emptyTopup());
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [customer, setCustomer] = useState<UserBrief | null>(null);

  // Money moves only after a second look: the dialog repeats the amount and the account.
  const [confirming, setConfirming] = useState(false);

  const check = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setOutcome(null);
    if (await submit(validateTopup, () => Promise.resolve(true), '')) setConfirming(true);
  };

  const send = async () => {
    setConfirming(false);
    const answer = await submit(
      validateTopup,
      async () => (await topupAdd({ body: topupBody(values) })).data,
      'The top-up could not be made.'
    );
    if (!answer) return;
    const again = /already credited/i.test(answer.message);
    setOutcome({ again, row: answer.data, name: customer?.name });
    reset({ ...emptyTopup(), user_id: values.user_id }); // the same customer, a new reference
    list.reload();
  };

  return (
    <>
      <PageTitle title="Topup" />
      <MainCard title="Credit a customer" sx={{ mb: 2.5 }}>
        <form onSubmit={check} noValidate>
          {message && (
            <Alert severity="error" sx={{ mb: 2 }} data-testid="topup-error">
              {message}
            </Alert>
          )}
          {outcome && (
            <Alert
              severity={outcome.again ? 'warning' : 'success'}
              sx={{ mb: 2 }}
              onClose={() => setOutcome(null)}
              data-testid="topup-outcome"
            >
              {outcome.again
                ? `Already credited: this reference was used before (${formatBalance(outcome.row.amount)}), nothing was added. That credit left the balance at `
                : `Credited ${formatBalance(outcome.row.amount)} to ${outcome.name ?? 'the customer'}. The balance is now `}
              <strong data-testid="topup-balance">{formatBalance(outcome.row.balance_after)}</strong>.
            </Alert>
          )}
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 4 }}>
              <CustomerPicker
                value={values.user_id}
                onChange={(id, row) => {
                  set('user_id', id);
                  setCustomer(row);
                }}
                testid="topup-customer"
                error={errors.user_id}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6, md: 2 }}>
              <TextField {...field('amount', 'Amount')} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6, md: 3 }}>
              <TextField {...field('reference', 'Reference', { helperText: 'Same reference twice credits once' })} />
            </Grid>
            <Grid size={{ xs: 12, md: 3 }}>
              <TextField {...field('note', 'Note', { helperText: 'Shown in the wallet' })} />
            </Grid>
            <Grid size={12}>
              <Button
                type="submit"
                variant="contained"
                startIcon={<WalletOutlined />}
                disabled={saving}
                data-testid="topup-send"
              >
                Credit wallet
              </Button>
            </Grid>
          </Grid>
        </form>
      </MainCard>
      <ConfirmDialog
        open={confirming}
        title="Credit this wallet?"
        text={
          <span data-testid="topup-confirm-text">
            Credit {formatBalance(String(values.amount).trim())} to {customer?.name ?? 'the customer'}
            {customer?.email ? ` (${customer.email})` : ''}.
          </span>
        }
        confirmLabel="Credit wallet"
        busy={saving}
        onConfirm={() => void send()}
        onClose={() => setConfirming(false)}
      />
      <ListCard
        name="topups"
        title="Recent top-ups"
        secondary={<SearchBox label="Search notes" value={list.search} onChange={list.setSearch} />}
        list={list}
        notice=""
        setNotice={() => {}}
        columns={[
          timeColumn('Date', timezone),
          'Customer',
          ['Amount', 'right'],
          ['Balance after', 'right'],
          'Reference',
          'Note'
        ]}
        emptyText="No top-ups yet."
      >
        {list.rows.map((row) => (
          <TableRow hover key={row.id} data-testid="topups-row" data-reference={row.reference}>
            <TableCell>{formatDateTime(row.date, timezone)}</TableCell>
            <TableCell>{names[row.user_id] ?? '…'}</TableCell>
            <TableCell align="right">{formatBalance(row.amount, undefined, places)}</TableCell>
            <TableCell align="right">{formatBalance(row.balance_after, undefined, places)}</TableCell>
            <TableCell>{row.reference}</TableCell>
            <TableCell>{row.description}</TableCell>
          </TableRow>
        ))}
      </ListCard>
    </>
  );
}
