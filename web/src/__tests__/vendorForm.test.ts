import { describe, expect, it } from 'vitest';
import { emptyVendor, validateVendor, vendorBody, vendorToForm } from '../utils/vendorForm';

describe('vendor dialog', () => {
  it('needs a name; contact, email and phone are optional', () => {
    expect(validateVendor(emptyVendor())).toEqual({ name: 'Name is required' });
    expect(validateVendor({ ...emptyVendor(), name: 'Acme' })).toEqual({});
  });

  it('checks an email when one is typed, and the lengths the server allows', () => {
    const errors = validateVendor({
      name: 'x'.repeat(121),
      contact_name: 'c'.repeat(121),
      email: 'noc@',
      phone: '1'.repeat(33)
    });
    expect(errors).toEqual({
      name: 'Name must be at most 120 characters',
      contact_name: 'Contact must be at most 120 characters',
      email: 'Must be a valid email',
      phone: 'Phone must be at most 32 characters'
    });
  });

  it('sends blanks as null so an edit clears them, and edits start from the listed vendor', () => {
    expect(vendorBody({ name: ' Acme ', contact_name: ' ', email: 'noc@acme.example', phone: '' })).toEqual({
      name: 'Acme',
      contact_name: null,
      email: 'noc@acme.example',
      phone: null
    });
    const listed = { id: 2, name: 'Acme', contact_name: null, email: 'a@b.co', phone: null, status: 'active' };
    expect(vendorToForm(listed)).toEqual({
      name: 'Acme',
      contact_name: '',
      email: 'a@b.co',
      phone: ''
    });
  });
});
