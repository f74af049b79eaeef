import { getMoneyConfig } from '../store/money';

/** An amount as the API sends it (a decimal string) or as a form holds it. */
export type Amount = string | number | null | undefined;

/** Amounts arrive as decimal strings with 4 places ("120.5000"). */
export function parseBalance(balance: Amount): number | null {
  if (balance === null || balance === undefined || balance === '') return null;
  const n = Number(balance);
  return Number.isFinite(n) ? n : null;
}

/** Low balance (spec §4, §9): strictly below the threshold the API gives. */
export function isLowBalance(balance: Amount, threshold: Amount = getMoneyConfig().low_balance_threshold): boolean {
  const n = parseBalance(balance);
  const line = parseBalance(threshold);
  return n !== null && line !== null && n < line;
}

/**
 * Money as people read it: two decimals and the currency (the API's when none is named). Prices
 * per minute pass `maxDigits` 4, so a rate of 0.0125 is not shown as 0.01.
 */
export function formatBalance(
  balance: Amount,
  currency: string | null | undefined = getMoneyConfig().currency,
  maxDigits = 2
): string {
  const n = parseBalance(balance);
  if (n === null) return '—';
  const digits: Intl.NumberFormatOptions = { minimumFractionDigits: 2, maximumFractionDigits: maxDigits };
  if (!currency) return n.toLocaleString('en-US', digits);
  return n.toLocaleString('en-US', { style: 'currency', currency, ...digits });
}
