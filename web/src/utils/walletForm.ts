// The wallet screen's filters, labels and the totals of a period.
import type { TransactionType, WalletTransactionOut } from '../client';

export const TRANSACTION_TYPES: readonly TransactionType[] = [
  'topup',
  'call',
  'number_setup',
  'number_monthly',
  'adjustment',
  'refund'
];
export const PAYMENT_TYPES = ['setup', 'monthly'] as const;

const LABELS: Record<string, string> = {
  topup: 'Top-up',
  call: 'Call',
  number_setup: 'Number setup',
  number_monthly: 'Number monthly',
  adjustment: 'Adjustment',
  refund: 'Refund',
  setup: 'Setup fee',
  monthly: 'Monthly fee'
};

export const typeLabel = (type: string): string => LABELS[type] ?? type;

export interface WalletTotals {
  credits: number;
  debits: number;
  net: number;
  count: number;
}

/** Credits, debits and their net over `rows`, summed in ten-thousandths (the API's 4 places). */
export function walletTotals(rows: readonly Pick<WalletTransactionOut, 'amount'>[]): WalletTotals {
  let credits = 0;
  let debits = 0;
  for (const row of rows) {
    const amount = Math.round(Number(row.amount) * 10000);
    if (amount >= 0) credits += amount;
    else debits += amount;
  }
  return { credits: credits / 10000, debits: debits / 10000, net: (credits + debits) / 10000, count: rows.length };
}

/** The month before `now` as "YYYY-MM": the one an invoice can be made for. */
export function lastMonth(now: Date = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return d.toISOString().slice(0, 7);
}

export function validateMonth(month: string): string {
  return /^20\d{2}-(0[1-9]|1[0-2])$/.test(month.trim()) ? '' : 'A month like 2026-10';
}
