// The number dialog's values <-> the API's number body (portal_api/schemas/numbers.py), and the
// sums shown before numbers are taken from the pool.
import type { NumberCreate, NumberOut, NumberStatus } from '../client';
import type { FieldErrors } from './validation';

export const NUMBER_STATUSES: readonly NumberStatus[] = ['active', 'inactive', 'suspended'];
const FEE = /^\d{1,14}(\.\d{1,4})?$/;

export interface NumberForm {
  number: string;
  iso2: string;
  setup_fee: string;
  monthly_fee: string;
  vendor_id: number | null;
  source_id: number | null; // the owner's traffic source (an owned number's edit)
}

/** POST /number/add's body; an edit (PUT) sends the same without `number`, with an owned number's source. */
export type NumberBody = Omit<NumberCreate, 'number'> & { number?: string; source_id?: number | null };

export function emptyNumber(): NumberForm {
  return { number: '', iso2: '', setup_fee: '0', monthly_fee: '0', vendor_id: null, source_id: null };
}

export function numberToForm(
  n: Pick<NumberOut, 'number' | 'setup_fee' | 'monthly_fee'> & Partial<Pick<NumberOut, 'vendor_id' | 'source_id'>>
): NumberForm {
  return {
    number: n.number,
    iso2: '',
    setup_fee: String(Number(n.setup_fee)),
    monthly_fee: String(Number(n.monthly_fee)),
    vendor_id: n.vendor_id ?? null,
    source_id: n.source_id ?? null
  };
}

const FEES = [
  ['setup_fee', 'Setup fee'],
  ['monthly_fee', 'Monthly fee']
] as const;

/** `{field: message}`; the number itself is checked (and made E.164) by the server. */
export function validateNumber(
  values: NumberForm,
  { editing = false }: { editing?: boolean } = {}
): FieldErrors<keyof NumberForm> {
  const errors: FieldErrors<keyof NumberForm> = {};
  if (!editing && !values.number.trim()) errors.number = 'Number is required';
  if (values.iso2.trim() && !/^[A-Za-z]{2}$/.test(values.iso2.trim()))
    errors.iso2 = 'A two-letter country code, such as GB';
  for (const [fee, label] of FEES) {
    if (!FEE.test(String(values[fee]).trim())) errors[fee] = `${label} must be an amount like 1.50`;
  }
  return errors;
}

/** A new number names itself (and its country, when not the number's own); an edit fees and vendor,
 * and an `owned` number's traffic source (a pool number has none). */
export function numberBody(
  values: NumberForm,
  { editing = false, owned = false }: { editing?: boolean; owned?: boolean } = {}
): NumberBody {
  const body: NumberBody = {
    setup_fee: String(values.setup_fee).trim(),
    monthly_fee: String(values.monthly_fee).trim(),
    vendor_id: values.vendor_id ?? null
  };
  if (values.iso2.trim()) body.iso2 = values.iso2.trim().toUpperCase();
  if (!editing) body.number = values.number.trim();
  if (editing && owned) body.source_id = values.source_id;
  return body;
}

/** What taking `rows` costs now: the sum of their setup fees, to the cent of the API's 4 places. */
export function setupTotal(rows: readonly { setup_fee: string | number }[]): number {
  const tenThousandths = rows.reduce((sum, r) => sum + Math.round(Number(r.setup_fee) * 10000), 0);
  return tenThousandths / 10000;
}
