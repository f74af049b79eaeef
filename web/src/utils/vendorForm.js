// The vendor dialog's values <-> the API's vendor body (portal_api/schemas/vendors.py): the
// carrier a number or an inbound trunk comes from, and who to call there.
import { validateEmail } from './validation';

export function emptyVendor() {
  return { name: '', contact_name: '', email: '', phone: '' };
}

export function vendorToForm(v) {
  return { name: v.name, contact_name: v.contact_name ?? '', email: v.email ?? '', phone: v.phone ?? '' };
}

/** `{field: message}`; only the name is required. */
export function validateVendor(values) {
  const errors = {};
  const name = values.name.trim();
  if (!name) errors.name = 'Name is required';
  else if (name.length > 120) errors.name = 'Name must be at most 120 characters';
  if (values.contact_name.trim().length > 120) errors.contact_name = 'Contact must be at most 120 characters';
  if (values.email.trim()) {
    const email = validateEmail(values.email);
    if (email) errors.email = email;
  }
  if (values.phone.trim().length > 32) errors.phone = 'Phone must be at most 32 characters';
  return errors;
}

/** Blank optional fields are sent as null, so an edit can clear them. */
export function vendorBody(values) {
  const text = (v) => v.trim() || null;
  return {
    name: values.name.trim(),
    contact_name: text(values.contact_name),
    email: text(values.email),
    phone: text(values.phone)
  };
}
