// The user dialog's values <-> the API's user body (portal_api/schemas/users.py). The admin adds
// customers (with a tariff) or other administrators; the server checks everything again.
import { validateEmail, validatePassword } from './validation';

export const ACCOUNT_KINDS = [
  ['customer', 'Customer'],
  ['admin', 'Administrator']
];

export function emptyUser() {
  return {
    kind: 'customer',
    name: '',
    email: '',
    password: '',
    timezone: 'UTC',
    tariff_id: null,
    company: '',
    phone: ''
  };
}

export function userToForm(user) {
  return {
    kind: { 1: 'admin', 3: 'buyer' }[Number(user.role)] ?? 'customer',
    name: user.name ?? '',
    email: user.email ?? '',
    password: '',
    timezone: user.timezone || 'UTC',
    tariff_id: user.tariff_id ?? null,
    company: user.company ?? '',
    phone: user.phone ?? ''
  };
}

/** `{field: message}`; an edit keeps the password unless a new one is typed. */
export function validateUser(values, { editing = false } = {}) {
  const errors = {};
  const name = values.name.trim();
  if (!name) errors.name = 'Name is required';
  else if (name.length > 120) errors.name = 'Name must be at most 120 characters';
  const email = validateEmail(values.email);
  if (email) errors.email = email;
  if (!editing || values.password) {
    const password = validatePassword(values.password);
    if (password) errors.password = password;
  }
  if (!values.timezone) errors.timezone = 'Timezone is required';
  if (values.company.trim().length > 160) errors.company = 'Company must be at most 160 characters';
  if (values.phone.trim().length > 32) errors.phone = 'Phone must be at most 32 characters';
  return errors;
}

/** The request body; only customers have a tariff, and an edit sends a password only when typed. */
export function userBody(values, { editing = false } = {}) {
  const body = {
    name: values.name.trim(),
    email: values.email.trim(),
    timezone: values.timezone,
    company: values.company.trim() || null,
    phone: values.phone.trim() || null
  };
  // A customer without a tariff is sent null, so an edit can take its tariff away.
  if (values.kind === 'customer') body.tariff_id = values.tariff_id ? Number(values.tariff_id) : null;
  if (!editing || values.password) body.password = values.password;
  return body;
}

/** Names of tariffs by id, for the list's Tariff column. */
export function namesById(rows) {
  return Object.fromEntries((rows ?? []).map((r) => [r.id, r.name]));
}
