// The traffic source dialog's values <-> the API's source body (portal_api/schemas/sources.py): a
// name, the utm_source that means it, and what its publisher is owed per converted call (nothing,
// a fixed amount typed in the currency's minor unit, or a percent of the buyer's payout).
import type { PayoutKind, SourceIn, SourceOut } from '../client';
import { formatBalance } from './balance';
import type { FieldErrors } from './validation';

export const PAYOUT_KINDS: readonly (readonly [PayoutKind, string])[] = [
  ['none', 'No payout'],
  ['fixed', 'Fixed per converted call'],
  ['share', "Share of the buyer's payout"]
];
const MAX_AMOUNT = 1000000;

export interface SourceForm {
  user_id: number | '';
  name: string;
  utm_source: string;
  payout_kind: PayoutKind;
  payout_amount: string;
  payout_share: string;
}

export function emptySource(): SourceForm {
  return { user_id: '', name: '', utm_source: '', payout_kind: 'none', payout_amount: '0', payout_share: '0' };
}

/** A stored amount ("2.5000") as a person reads it ("2.5"). */
const plain = (amount: string): string => String(Number(amount));

export function sourceToForm(
  s: Pick<SourceOut, 'user_id' | 'name' | 'utm_source' | 'payout_kind' | 'payout_amount' | 'payout_share'>
): SourceForm {
  return {
    user_id: s.user_id,
    name: s.name,
    utm_source: s.utm_source ?? '',
    payout_kind: s.payout_kind,
    payout_amount: plain(s.payout_amount),
    payout_share: plain(s.payout_share)
  };
}

/** How many decimals a person types in `currency` (its minor unit: 2 for USD, 0 for JPY, 3 for KWD). */
export function minorDigits(currency: string | null | undefined): number {
  try {
    return (
      new Intl.NumberFormat('en-US', { style: 'currency', currency: currency || 'USD' }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2; // not a currency Intl knows
  }
}

/** `{field: message}`; `admin` must name the customer, and an amount has the currency's minor unit at most. */
export function validateSource(
  values: SourceForm,
  { admin = false, currency }: { admin?: boolean; currency?: string | null } = {}
): FieldErrors<keyof SourceForm> {
  const errors: FieldErrors<keyof SourceForm> = {};
  const name = values.name.trim();
  if (!name) errors.name = 'Name is required';
  else if (name.length > 120) errors.name = 'Name must be at most 120 characters';
  if (values.utm_source.trim().length > 128) errors.utm_source = 'utm_source must be at most 128 characters';
  if (admin && values.user_id === '') errors.user_id = 'Choose the customer';
  if (values.payout_kind === 'fixed') {
    const digits = minorDigits(currency);
    const amount = new RegExp(digits ? `^\\d{1,7}(\\.\\d{1,${digits}})?$` : '^\\d{1,7}$');
    const typed = values.payout_amount.trim();
    if (!amount.test(typed) || Number(typed) > MAX_AMOUNT)
      errors.payout_amount = digits
        ? `An amount from 0 to ${MAX_AMOUNT.toLocaleString('en-US')} with at most ${digits} decimals, like 2.50`
        : `A whole amount from 0 to ${MAX_AMOUNT.toLocaleString('en-US')}`;
  }
  if (values.payout_kind === 'share') {
    const typed = values.payout_share.trim();
    if (!/^\d{1,3}(\.\d{1,4})?$/.test(typed) || Number(typed) > 100)
      errors.payout_share = 'A percent from 0 to 100, like 12.5';
  }
  return errors;
}

/** The body: only the figure the kind uses is sent (the other keeps what it was); blank utm_source is none. */
export function sourceBody(values: SourceForm, { admin = false }: { admin?: boolean } = {}): SourceIn {
  const body: SourceIn = {
    name: values.name.trim(),
    utm_source: values.utm_source.trim() || null,
    payout_kind: values.payout_kind
  };
  if (values.payout_kind === 'fixed') body.payout_amount = values.payout_amount.trim();
  if (values.payout_kind === 'share') body.payout_share = values.payout_share.trim();
  if (admin && values.user_id !== '') body.user_id = values.user_id;
  return body;
}

/** A source's payout as a list shows it: "2.50 per converted call", "12.5% of payout", "None". */
export function payoutText(
  s: Pick<SourceOut, 'payout_kind' | 'payout_amount' | 'payout_share'>,
  currency?: string | null
): string {
  if (s.payout_kind === 'fixed') return `${formatBalance(s.payout_amount, currency)} per converted call`;
  if (s.payout_kind === 'share') return `${plain(s.payout_share)}% of the buyer's payout`;
  return 'None';
}
