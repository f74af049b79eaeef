// The vendor dialog's values <-> the API's vendor body (portal_api/schemas/vendors.py): the
// carrier a number or an inbound trunk comes from, and who to call there.
import type { VendorCreate, VendorOut } from '../client';
import { type FieldErrors, phoneProblem, validateEmail } from './validation';

export interface VendorForm {
  name: string;
  contact_name: string;
  email: string;
  phone: string;
}

export function emptyVendor(): VendorForm {
  return { name: '', contact_name: '', email: '', phone: '' };
}

export function vendorToForm(v: Pick<VendorOut, 'name' | 'contact_name' | 'email' | 'phone'>): VendorForm {
  return { name: v.name, contact_name: v.contact_name ?? '', email: v.email ?? '', phone: v.phone ?? '' };
}

/** `{field: message}`; only the name is required. */
export function validateVendor(values: VendorForm): FieldErrors<keyof VendorForm> {
  const errors: FieldErrors<keyof VendorForm> = {};
  const name = values.name.trim();
  if (!name) errors.name = 'Name is required';
  else if (name.length > 120) errors.name = 'Name must be at most 120 characters';
  if (values.contact_name.trim().length > 120) errors.contact_name = 'Contact must be at most 120 characters';
  if (values.email.trim()) {
    const email = validateEmail(values.email);
    if (email) errors.email = email;
  }
  const phone = phoneProblem(values.phone);
  if (phone) errors.phone = phone;
  return errors;
}

/** Blank optional fields are sent as null, so an edit can clear them. */
export function vendorBody(values: VendorForm): VendorCreate {
  const text = (v: string): string | null => v.trim() || null;
  return {
    name: values.name.trim(),
    contact_name: text(values.contact_name),
    email: text(values.email),
    phone: text(values.phone)
  };
}
