// Field validation used by the sign-in, register and password forms.

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateEmail(email) {
  const value = String(email ?? '').trim();
  if (!value) return 'Email is required';
  if (value.length > 255) return 'Email must be at most 255 characters';
  if (!EMAIL.test(value)) return 'Must be a valid email';
  return '';
}

export function validatePassword(password) {
  const value = String(password ?? '');
  if (!value) return 'Password is required';
  if (value.length < 8) return 'Password must be at least 8 characters';
  if (!/[A-Za-z]/.test(value) || !/\d/.test(value)) return 'Password must contain a letter and a digit';
  return '';
}

export function validateLogin({ email, password }) {
  const errors = {};
  const e = validateEmail(email);
  if (e) errors.email = e;
  if (!String(password ?? '')) errors.password = 'Password is required';
  return errors;
}

export function validateRegister({ name, email, password, confirm, timezone }) {
  const errors = {};
  const n = String(name ?? '').trim();
  if (!n) errors.name = 'Name is required';
  else if (n.length > 100) errors.name = 'Name must be at most 100 characters';
  const e = validateEmail(email);
  if (e) errors.email = e;
  const p = validatePassword(password);
  if (p) errors.password = p;
  if (!confirm) errors.confirm = 'Please confirm the password';
  else if (confirm !== password) errors.confirm = 'Passwords do not match';
  if (!timezone) errors.timezone = 'Timezone is required';
  return errors;
}

export function validateChangePassword({ current, next, confirm }) {
  const errors = {};
  if (!current) errors.current = 'Current password is required';
  const p = validatePassword(next);
  if (p) errors.next = p;
  if (!confirm) errors.confirm = 'Please confirm the new password';
  else if (confirm !== next) errors.confirm = 'Passwords do not match';
  return errors;
}

/** The reset-password form: a valid new password, confirmed. */
export function validateResetPassword({ next, confirm }) {
  const errors = {};
  const p = validatePassword(next);
  if (p) errors.next = p;
  if (!confirm) errors.confirm = 'Please confirm the new password';
  else if (confirm !== next) errors.confirm = 'Passwords do not match';
  return errors;
}

/** First message per field of a server `errors` object ({field: [msgs]}). */
/**
 * What a form's banner says about a refused save: nothing when the server named a field the form
 * shows (that field says it, once), else the server's message or `fallback`.
 */
export function bannerMessage(err, shownFields, fallback) {
  const fields = firstFieldErrors(err?.errors);
  if (shownFields.some((f) => fields[f])) return '';
  return err?.message || fallback;
}

export function firstFieldErrors(errors) {
  const out = {};
  if (!errors || typeof errors !== 'object') return out;
  for (const [field, msgs] of Object.entries(errors)) {
    out[field] = Array.isArray(msgs) ? String(msgs[0] ?? '') : String(msgs);
  }
  return out;
}
