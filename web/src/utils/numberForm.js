// The number dialog's values <-> the API's number body (portal_api/schemas/numbers.py), and the
// sums shown before numbers are taken from the pool.

export const NUMBER_STATUSES = ['active', 'inactive', 'suspended'];
const FEE = /^\d{1,14}(\.\d{1,4})?$/;

export function emptyNumber() {
  return { number: '', iso2: '', setup_fee: '0', monthly_fee: '0', vendor_id: null };
}

export function numberToForm(n) {
  return {
    number: n.number,
    iso2: '',
    setup_fee: String(Number(n.setup_fee)),
    monthly_fee: String(Number(n.monthly_fee)),
    vendor_id: n.vendor_id ?? null
  };
}

/** `{field: message}`; the number itself is checked (and made E.164) by the server. */
export function validateNumber(values, { editing = false } = {}) {
  const errors = {};
  if (!editing && !values.number.trim()) errors.number = 'Number is required';
  if (values.iso2.trim() && !/^[A-Za-z]{2}$/.test(values.iso2.trim()))
    errors.iso2 = 'A two-letter country code, such as GB';
  for (const [fee, label] of [
    ['setup_fee', 'Setup fee'],
    ['monthly_fee', 'Monthly fee']
  ]) {
    if (!FEE.test(String(values[fee]).trim())) errors[fee] = `${label} must be an amount like 1.50`;
  }
  return errors;
}

/** A new number names itself (and its country, when not the number's own); an edit fees and vendor. */
export function numberBody(values, { editing = false } = {}) {
  const body = {
    setup_fee: String(values.setup_fee).trim(),
    monthly_fee: String(values.monthly_fee).trim(),
    vendor_id: values.vendor_id ?? null
  };
  if (values.iso2.trim()) body.iso2 = values.iso2.trim().toUpperCase();
  if (!editing) body.number = values.number.trim();
  return body;
}

/** What taking `rows` costs now: the sum of their setup fees, to the cent of the API's 4 places. */
export function setupTotal(rows) {
  const tenThousandths = rows.reduce((sum, r) => sum + Math.round(Number(r.setup_fee) * 10000), 0);
  return tenThousandths / 10000;
}
