// Wallet: the payment history (spec §3 wallet filters; the admin's over every customer) with the
// balance after each row, the totals of the filtered period and a CSV export; and, as a second
// tab, the number payment report (setup and monthly fees, GET /number/ct).
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { DownloadOutlined } from '@ant-design/icons';

import CallFilters, { type FilterQuery, type ReportFilters } from '../../components/CallFilters';
import type { SelectOption } from '../../components/FormDialog';
import ListCard from '../../components/ListCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import {
  numbersPayments,
  usersWall,
  type NumberPaymentOut,
  type NumbersPaymentsData,
  type UsersWallData,
  type WalletTransactionOut
} from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import useCustomerNames from '../../hooks/useCustomerNames';
import usePagedList, { fetchAll, type Page } from '../../hooks/usePagedList';
import { announceMoneyMoved } from '../../store/money';
import { formatBalance, moneyPlaces } from '../../utils/balance';
import { saveCsv, toCsv, type CsvColumn } from '../../utils/download';
import { formatDateTime, safeTimeZone, timeColumn } from '../../utils/time';
import { isAdmin } from '../../utils/roles';
import { getStoredUser } from '../../utils/storage';
import { PAYMENT_TYPES, TRANSACTION_TYPES, typeLabel, walletTotals } from '../../utils/walletForm';

// Totals add up every row of the period; past this many rows the user narrows the dates first.
const TOTALS_LIMIT = 5000;
const labelled = (types: readonly string[]): SelectOption[] => types.map((t) => [t, typeLabel(t)] as const);

// The filters as typed (text); the server parses and checks them (422), as it did the query string.
const fetchWallet = (query: FilterQuery) => call(usersWall({ query: query as UsersWallData['query'] }));
const fetchNumberPayments = (query: FilterQuery) =>
  call(numbersPayments({ query: query as NumbersPaymentsData['query'] }));

/** What every ledger row has. */
interface LedgerRow {
  id: number;
  date: string;
  user_id: number;
  amount: string;
  balance_after: string;
  reference?: string;
  number?: string | null;
}

/** A tab's own column: its header (none: in the CSV only), its cell, and its CSV column. */
interface MiddleColumn<Row> {
  label?: string;
  cell?: (row: Row) => ReactNode;
  csv: CsvColumn<Row>;
}

function Amount({ value, places }: { value: string; places: number }) {
  const n = Number(value);
  return (
    <Typography component="span" variant="body2" sx={{ color: n < 0 ? 'error.main' : 'success.main', fontWeight: 500 }}>
      {n > 0 ? '+' : ''}
      {formatBalance(value, undefined, places)}
    </Typography>
  );
}

/**
 * One tab: its filters, its list, what sums and exports it. Every row has its date, customer (for
 * the admin), amount and balance after; `middle` are the tab's own columns between them, each
 * `{label, cell(row), csv: [header, value(row)]}` (no label: in the CSV only).
 */
interface LedgerProps<Row extends LedgerRow> {
  name: string;
  fetchPage: (query: FilterQuery) => Promise<Page<Row>>;
  filterFields: ReadonlyArray<readonly [string, string]>;
  choices: Record<string, readonly SelectOption[]>;
  middle: ReadonlyArray<MiddleColumn<Row>>;
  admin: boolean;
  timezone: string | null | undefined;
}

function Ledger<Row extends LedgerRow>({
  name,
  fetchPage,
  filterFields,
  choices,
  middle,
  admin,
  timezone
}: LedgerProps<Row>) {
  const list = usePagedList(fetchPage, { perpage: 25, failure: 'The payments could not be loaded.' });
  const { rows, total, filters, filterBy, setError } = list;
  const names = useCustomerNames(rows, admin);
  // The totals of the filters they were read for: none while another period is read.
  const [totals, setTotals] = useState<{ of: unknown; sums: ReturnType<typeof walletTotals> } | null>(null);
  const [exporting, setExporting] = useState(false);
  const shown = middle.filter((m) => m.label);
  // One number of places for every amount on the page: a sub-cent call line shows its places in
  // every row, so each balance after is visibly the one before plus the amount.
  const places = moneyPlaces(rows.flatMap((r) => [r.amount, r.balance_after]));

  const summed = useMemo(
    () => (total === 0 || total > TOTALS_LIMIT ? null : { fetchPage, filters, total }),
    [fetchPage, filters, total]
  );
  const sums = totals && totals.of === summed ? totals.sums : null;
  useEffect(() => {
    if (!summed) return undefined;
    let alive = true;
    fetchAll(summed.fetchPage, summed.filters)
      .then((all) => alive && setTotals({ of: summed, sums: walletTotals(all) }))
      .catch(() => alive && setTotals(null));
    return () => {
      alive = false;
    };
  }, [summed]);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const all = await fetchAll(fetchPage, filters);
      const columns: CsvColumn<Row>[] = [
        // The zone the dates are in is the column's name: the file stays a plain CSV.
        [`date (${safeTimeZone(timezone)})`, (r) => formatDateTime(r.date, timezone, { seconds: true })],
        ...(admin ? [['customer', (r: Row) => names[r.user_id] ?? r.user_id] as const] : []),
        ...middle.map((m) => m.csv),
        ['amount', (r) => r.amount],
        ['balance_after', (r) => r.balance_after]
      ];
      saveCsv(toCsv(all, columns), `${name}.csv`);
    } catch (err) {
      setError(failureMessage(err, 'The payments could not be exported.'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <CallFilters
        name={name}
        fields={filterFields}
        choices={choices}
        size={{ xs: 6, md: 4, lg: 2 }}
        onApply={(applied: ReportFilters) => filterBy(applied)}
        onProblem={setError}
      />
      <ListCard
        name={name}
        title={`${total} payment${total === 1 ? '' : 's'}`}
        secondary={
          <Button
            variant="outlined"
            startIcon={<DownloadOutlined />}
            onClick={exportCsv}
            disabled={exporting || total === 0}
            data-testid={`${name}-export`}
          >
            Export CSV
          </Button>
        }
        list={list}
        notice=""
        setNotice={() => {}}
        columns={[
          timeColumn('Date', timezone),
          admin && 'Customer',
          ...shown.map((m) => m.label),
          ['Amount', 'right'],
          ['Balance after', 'right']
        ]}
        emptyText="No payments in this period."
      >
        {rows.map((row) => (
          <TableRow hover key={row.id} data-testid={`${name}-row`} data-reference={row.reference ?? row.number}>
            <TableCell>{formatDateTime(row.date, timezone)}</TableCell>
            {admin && <TableCell>{names[row.user_id] ?? '…'}</TableCell>}
            {shown.map((m) => (
              <TableCell key={m.label}>{m.cell?.(row)}</TableCell>
            ))}
            <TableCell align="right">
              <Amount value={row.amount} places={places} />
            </TableCell>
            <TableCell align="right" data-testid={`${name}-balance-after`}>
              {formatBalance(row.balance_after, undefined, places)}
            </TableCell>
          </TableRow>
        ))}
      </ListCard>
      <Box sx={{ mt: 1.5 }} data-testid={`${name}-totals`}>
        {sums ? (
          <Stack direction="row" spacing={3}>
            <Typography variant="body2">
              Credits{' '}
              <strong data-testid={`${name}-credits`}>
                {formatBalance(sums.credits, undefined, moneyPlaces([sums.credits, sums.debits]))}
              </strong>
            </Typography>
            <Typography variant="body2">
              Debits{' '}
              <strong data-testid={`${name}-debits`}>
                {formatBalance(sums.debits, undefined, moneyPlaces([sums.credits, sums.debits]))}
              </strong>
            </Typography>
            <Typography variant="body2">
              Net{' '}
              <strong data-testid={`${name}-net`}>
                {formatBalance(sums.net, undefined, moneyPlaces([sums.credits, sums.debits]))}
              </strong>{' '}
              over {sums.count} payment
              {sums.count === 1 ? '' : 's'}
            </Typography>
          </Stack>
        ) : (
          total > TOTALS_LIMIT && (
            <Typography variant="body2">Narrow the dates to see the totals ({total} payments).</Typography>
          )
        )}
      </Box>
    </>
  );
}

const DESCRIPTION: MiddleColumn<{ description: string }> = {
  label: 'Description',
  cell: (r) => r.description,
  csv: ['description', (r) => r.description]
};
const PAYMENT_COLUMNS: MiddleColumn<WalletTransactionOut>[] = [
  { label: 'Type', cell: (r) => typeLabel(r.transaction_type), csv: ['type', (r) => r.transaction_type] },
  DESCRIPTION,
  { csv: ['reference', (r) => r.reference] }
];
const NUMBER_COLUMNS: MiddleColumn<NumberPaymentOut>[] = [
  { label: 'Number', cell: (r) => r.number ?? '—', csv: ['number', (r) => r.number ?? ''] },
  { label: 'Fee', cell: (r) => typeLabel(r.payment_type), csv: ['fee', (r) => r.payment_type] },
  DESCRIPTION
];

export default function WalletPage() {
  const user = getStoredUser();
  const admin = isAdmin(user);
  const [tab, setTab] = useState(0);

  // Opening the wallet reads the balance again: a top-up may have arrived since.
  useEffect(() => announceMoneyMoved(), []);

  const customer = admin ? [['user_id', 'Customer'] as const] : [];
  const common = { admin, timezone: user?.timezone };
  return (
    <>
      <PageTitle title="Wallet" />
      <Tabs value={tab} onChange={(_, t) => setTab(t)} sx={{ mb: 2 }}>
        <Tab label="Payment history" data-testid="wallet-tab-payments" />
        <Tab label="Number payments" data-testid="wallet-tab-numbers" />
      </Tabs>
      {tab === 0 && (
        <Ledger
          name="wallet"
          {...common}
          fetchPage={fetchWallet}
          filterFields={[
            ...customer,
            ['transaction_type', 'Type'],
            ['fromDate', 'From'],
            ['toDate', 'To'],
            ['description', 'Description']
          ]}
          choices={{ transaction_type: labelled(TRANSACTION_TYPES) }}
          middle={PAYMENT_COLUMNS}
        />
      )}
      {tab === 1 && (
        <Ledger
          name="numberpay"
          {...common}
          fetchPage={fetchNumberPayments}
          filterFields={[...customer, ['payment_type', 'Fee'], ['fromDate', 'From'], ['toDate', 'To']]}
          choices={{ payment_type: labelled(PAYMENT_TYPES) }}
          middle={NUMBER_COLUMNS}
        />
      )}
    </>
  );
}
