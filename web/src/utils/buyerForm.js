// The buyer dialog's values <-> the API's buyer body (portal_api/schemas/buyers.py): a buyer's
// email and password are its own sign-in (role 3), to see its calls and targets.
import { validateEmail, validatePassword } from './validation';

export function emptyBuyer() {
  return { name: '', email: '', password: '', phone: '', user_id: '' };
}

export function buyerToForm(b) {
  return { name: b.name, email: b.email ?? '', password: '', phone: b.phone ?? '', user_id: String(b.user_id) };
}

/** `{field: message}`; an edit keeps the password unless a new one is typed. */
export function validateBuyer(values, { editing = false, needsOwner = false } = {}) {
  const errors = {};
  if (!values.name.trim()) errors.name = 'Name is required';
  const email = validateEmail(values.email);
  if (email) errors.email = email;
  if (!editing || values.password) {
    const password = validatePassword(values.password);
    if (password) errors.password = password;
  }
  if (values.phone.trim().length > 32) errors.phone = 'Phone must be at most 32 characters';
  if (needsOwner && !/^\d+$/.test(values.user_id.trim())) errors.user_id = 'Customer ID is required';
  return errors;
}

export function buyerBody(values, { editing = false, admin = false } = {}) {
  const body = { name: values.name.trim(), email: values.email.trim(), phone: values.phone.trim() || null };
  if (!editing || values.password) body.password = values.password;
  if (!editing && admin) body.user_id = Number(values.user_id);
  return body;
}
