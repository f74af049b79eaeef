import { LOW_BALANCE_THRESHOLD } from '../config';

/** Balances arrive as decimal strings ("120.5000"). */
export function parseBalance(balance) {
  if (balance === null || balance === undefined || balance === '') return null;
  const n = Number(balance);
  return Number.isFinite(n) ? n : null;
}

/** Low balance (spec §4, §9): strictly below 50. */
export function isLowBalance(balance) {
  const n = parseBalance(balance);
  return n !== null && n < LOW_BALANCE_THRESHOLD;
}

export function formatBalance(balance) {
  const n = parseBalance(balance);
  if (n === null) return '—';
  const sign = n < 0 ? '-' : '';
  return `${sign}$${Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
