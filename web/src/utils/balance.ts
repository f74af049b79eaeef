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

/** How many places the currency's minor unit has (USD 2, JPY 0, KWD 3); 2 when none is named. */
export function minorUnit(currency: string | null | undefined): number {
  if (!currency) return 2;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Rates per minute and sub-cent call costs: the 4 stored places, the same in every row. */
export const RATE_PLACES = 4;

/**
 * The one money formatter: the amount and the currency (the API's when none is named) with exactly
 * `places` decimals, by default the currency's minor unit ($120.50, ¥1,500). Rates and call costs
 * pass RATE_PLACES; a column whose rows may hold sub-cent amounts passes moneyPlaces(its values).
 */
export function formatBalance(
  balance: Amount,
  currency: string | null | undefined = getMoneyConfig().currency,
  places: number = minorUnit(currency)
): string {
  const n = parseBalance(balance);
  if (n === null) return '—';
  const digits: Intl.NumberFormatOptions = { minimumFractionDigits: places, maximumFractionDigits: places };
  if (!currency) return n.toLocaleString('en-US', digits);
  return n.toLocaleString('en-US', { style: 'currency', currency, ...digits });
}

/**
 * The places a column of amounts needs so each is exact and they add up: the minor unit, or up to
 * the 4 stored places when a row holds a fraction of a cent (a call of $0.0125); one for all rows.
 */
export function moneyPlaces(
  amounts: readonly Amount[],
  currency: string | null | undefined = getMoneyConfig().currency
): number {
  let places = minorUnit(currency);
  for (const amount of amounts) {
    const [, fraction = ''] = String(amount ?? '').split('.');
    places = Math.max(places, fraction.replace(/0+$/, '').length);
  }
  return Math.min(places, RATE_PLACES);
}
