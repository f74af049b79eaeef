// The user dialog's values <-> the API's user body (portal_api/schemas/users.py). The admin adds
// customers (with a tariff) or other administrators; the server checks everything again.
import type { TariffOut, UserCreate, UserOut } from '../client';
import { type FieldErrors, phoneProblem, validateEmail, validatePassword } from './validation';

export type AccountKind = 'customer' | 'admin' | 'buyer';

export interface UserForm {
  kind: AccountKind;
  name: string;
  email: string;
  password: string;
  timezone: string;
  tariff_id: number | string | null;
  company: string;
  phone: string;
}

type TimeZone = NonNullable<UserCreate['timezone']>;

/** POST /user/add's body; an edit (PUT) leaves the password out unless one is typed. */
export type UserBody = Omit<UserCreate, 'password'> & { password?: string };

const KIND_OF_ROLE: Record<number, AccountKind> = { 1: 'admin', 3: 'buyer' };

export const ACCOUNT_KINDS: readonly (readonly [AccountKind, string])[] = [
  ['customer', 'Customer'],
  ['admin', 'Administrator']
];

export function emptyUser(): UserForm {
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

export function userToForm(
  user: Partial<Pick<UserOut, 'name' | 'email' | 'timezone' | 'tariff_id' | 'company' | 'phone'>> & {
    role?: number | string | null;
  }
): UserForm {
  return {
    kind: KIND_OF_ROLE[Number(user.role)] ?? 'customer',
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
export function validateUser(
  values: UserForm,
  { editing = false }: { editing?: boolean } = {}
): FieldErrors<keyof UserForm> {
  const errors: FieldErrors<keyof UserForm> = {};
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
  const phone = phoneProblem(values.phone);
  if (phone) errors.phone = phone;
  return errors;
}

/** The request body; only customers have a tariff, and an edit sends a password only when typed. */
export function userBody(values: UserForm, { editing = false }: { editing?: boolean } = {}): UserBody {
  const body: UserBody = {
    name: values.name.trim(),
    email: values.email.trim(),
    // Picked from the browser's own list of zones (timeZoneList); the server refuses one it lacks.
    timezone: values.timezone as TimeZone,
    company: values.company.trim() || null,
    phone: values.phone.trim() || null
  };
  // A customer without a tariff is sent null, so an edit can take its tariff away.
  if (values.kind === 'customer') body.tariff_id = values.tariff_id ? Number(values.tariff_id) : null;
  if (!editing || values.password) body.password = values.password;
  return body;
}

/** Names of tariffs by id, for the list's Tariff column. */
export function namesById(rows: readonly Pick<TariffOut, 'id' | 'name'>[] | null | undefined): Record<number, string> {
  return Object.fromEntries((rows ?? []).map((r) => [r.id, r.name]));
}
