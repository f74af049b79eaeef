// The top-up form's values <-> the API's top-up body (portal_api/schemas/billing.py TopupIn).
import type { TopupIn } from '../client';
import type { FieldErrors } from './validation';

const AMOUNT = /^\d{1,7}(\.\d+)?$/;
// A person types the currency's minor unit (cents): what is shown is what is credited.
const CENTS = /^\d+(\.\d{1,2})?$/;
const REFERENCE = /^[A-Za-z0-9._:-]{1,64}$/;

export interface TopupForm {
  user_id: string | number | null;
  amount: string | number;
  reference: string;
  note: string;
}

/** A fresh reference for each new top-up: sending the form twice credits once. */
export function newReference(now: number = Date.now(), random: () => number = Math.random): string {
  return `web-${now.toString(36)}-${Math.floor(random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0')}`;
}

export function emptyTopup(reference: string = newReference()): TopupForm {
  return { user_id: '', amount: '', reference, note: '' };
}

export function validateTopup(values: TopupForm): FieldErrors<keyof TopupForm> {
  const errors: FieldErrors<keyof TopupForm> = {};
  if (values.user_id === '' || values.user_id === null) errors.user_id = 'Choose the customer to credit';
  const amount = String(values.amount).trim();
  if (!AMOUNT.test(amount) || Number(amount) <= 0) errors.amount = 'Amount must be more than 0, like 100.00';
  else if (!CENTS.test(amount)) errors.amount = `At most 2 decimals (cents): ${amount} can't be credited as typed`;
  else if (Number(amount) > 1000000) errors.amount = 'At most 1,000,000 in one top-up';
  if (values.reference.trim() && !REFERENCE.test(values.reference.trim()))
    errors.reference = 'Letters, digits and . _ : - only, at most 64';
  if (values.note.trim().length > 200) errors.note = 'Note must be at most 200 characters';
  return errors;
}

export function topupBody(values: TopupForm): TopupIn {
  const body: TopupIn = {
    user_id: Number(values.user_id),
    amount: String(values.amount).trim(),
    note: values.note.trim()
  };
  if (values.reference.trim()) body.reference = values.reference.trim();
  return body;
}
