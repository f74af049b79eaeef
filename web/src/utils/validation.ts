// Field validation used by the sign-in, register and password forms.

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A form's problems: field -> message, only for the fields that have one. */
export type FieldErrors<Field extends string = string> = Partial<Record<Field, string>>;

/** A refused call as the forms read it: the spec §8 error's message and its `{field: [messages]}`. */
export interface RefusedSave {
  message?: string;
  errors?: Record<string, string[] | string> | undefined;
}

export interface LoginValues {
  email: string;
  password: string;
}

export interface RegisterValues {
  name: string;
  email: string;
  password: string;
  confirm: string;
  timezone: string;
}

export interface ChangePasswordValues {
  current: string;
  next: string;
  confirm: string;
}

export function validateEmail(email: string | null | undefined): string {
  const value = String(email ?? '').trim();
  if (!value) return 'Email is required';
  if (value.length > 255) return 'Email must be at most 255 characters';
  if (!EMAIL.test(value)) return 'Must be a valid email';
  return '';
}

const PHONE = /^\+?[0-9 ().-]*[0-9][0-9 ().-]*$/;

/** A contact phone's problem, or '': the server reads the number itself (E.164, or national in the
 *  account's country: portal_api/schemas/common.py Phone, core/values/phone.py contact_number). */
export function phoneProblem(phone: string): string {
  const value = phone.trim();
  if (value.length > 32) return 'Phone must be at most 32 characters';
  if (value && !PHONE.test(value)) return 'Must be a phone number, such as +44 20 7946 0713';
  return '';
}

export function validatePassword(password: string | null | undefined): string {
  const value = String(password ?? '');
  if (!value) return 'Password is required';
  if (value.length < 8) return 'Password must be at least 8 characters';
  if (!/[A-Za-z]/.test(value) || !/\d/.test(value)) return 'Password must contain a letter and a digit';
  return '';
}

export function validateLogin({ email, password }: LoginValues): FieldErrors<keyof LoginValues> {
  const errors: FieldErrors<keyof LoginValues> = {};
  const e = validateEmail(email);
  if (e) errors.email = e;
  if (!String(password ?? '')) errors.password = 'Password is required';
  return errors;
}

export function validateRegister({
  name,
  email,
  password,
  confirm,
  timezone
}: Partial<RegisterValues>): FieldErrors<keyof RegisterValues> {
  const errors: FieldErrors<keyof RegisterValues> = {};
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

export function validateChangePassword({
  current,
  next,
  confirm
}: ChangePasswordValues): FieldErrors<keyof ChangePasswordValues> {
  const errors: FieldErrors<keyof ChangePasswordValues> = {};
  if (!current) errors.current = 'Current password is required';
  const p = validatePassword(next);
  if (p) errors.next = p;
  if (!confirm) errors.confirm = 'Please confirm the new password';
  else if (confirm !== next) errors.confirm = 'Passwords do not match';
  return errors;
}

/** The reset-password form: a valid new password, confirmed. */
export function validateResetPassword({
  next,
  confirm
}: Pick<ChangePasswordValues, 'next' | 'confirm'>): FieldErrors<'next' | 'confirm'> {
  const errors: FieldErrors<'next' | 'confirm'> = {};
  const p = validatePassword(next);
  if (p) errors.next = p;
  if (!confirm) errors.confirm = 'Please confirm the new password';
  else if (confirm !== next) errors.confirm = 'Passwords do not match';
  return errors;
}

/**
 * What a form's banner says about a refused save: nothing when the server named a field the form
 * shows (that field says it, once), else the server's message or `fallback`.
 */
export function bannerMessage(
  err: RefusedSave | null | undefined,
  shownFields: readonly string[],
  fallback: string
): string {
  const fields = firstFieldErrors(err?.errors);
  if (shownFields.some((f) => fields[f])) return '';
  return err?.message || fallback;
}

/** The message of something thrown (the parsers here throw an Error saying what is wrong). */
export function thrownMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** First message per field of a server `errors` object ({field: [msgs]}). */
export function firstFieldErrors(errors: RefusedSave['errors'] | null): FieldErrors {
  const out: FieldErrors = {};
  if (!errors || typeof errors !== 'object') return out;
  for (const [field, msgs] of Object.entries(errors)) {
    out[field] = Array.isArray(msgs) ? String(msgs[0] ?? '') : String(msgs);
  }
  return out;
}
