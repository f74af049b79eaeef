// The buyer dialog's values <-> the API's buyer body (portal_api/schemas/buyers.py): a buyer's
// email and password are its own sign-in (role 3), to see its calls and targets.
import type { BuyerIn, BuyerOut } from '../client';
import { type FieldErrors, phoneProblem, validateEmail, validatePassword } from './validation';

export interface BuyerForm {
  name: string;
  email: string;
  password: string;
  phone: string;
  user_id: string;
}

export function emptyBuyer(): BuyerForm {
  return { name: '', email: '', password: '', phone: '', user_id: '' };
}

export function buyerToForm(b: Pick<BuyerOut, 'name' | 'email' | 'phone' | 'user_id'>): BuyerForm {
  return { name: b.name, email: b.email ?? '', password: '', phone: b.phone ?? '', user_id: String(b.user_id) };
}

/** `{field: message}`; an edit keeps the password unless a new one is typed. */
export function validateBuyer(
  values: BuyerForm,
  { editing = false, needsOwner = false }: { editing?: boolean; needsOwner?: boolean } = {}
): FieldErrors<keyof BuyerForm> {
  const errors: FieldErrors<keyof BuyerForm> = {};
  if (!values.name.trim()) errors.name = 'Name is required';
  const email = validateEmail(values.email);
  if (email) errors.email = email;
  if (!editing || values.password) {
    const password = validatePassword(values.password);
    if (password) errors.password = password;
  }
  const phone = phoneProblem(values.phone);
  if (phone) errors.phone = phone;
  if (needsOwner && !/^\d+$/.test(values.user_id.trim())) errors.user_id = 'Customer ID is required';
  return errors;
}

/** A new buyer's body (BuyerIn); an edit's leaves the password out unless one is typed (BuyerUpdate). */
export function buyerBody(
  values: BuyerForm,
  { editing = false, admin = false }: { editing?: boolean; admin?: boolean } = {}
): Omit<BuyerIn, 'password'> & { password?: string } {
  const body: Omit<BuyerIn, 'password'> & { password?: string } = {
    name: values.name.trim(),
    email: values.email.trim(),
    phone: values.phone.trim() || null
  };
  if (!editing || values.password) body.password = values.password;
  if (!editing && admin) body.user_id = Number(values.user_id);
  return body;
}
