import { describe, expect, it } from 'vitest';
import { buyerBody, buyerToForm, emptyBuyer, validateBuyer } from '../utils/buyerForm';

const filled = { ...emptyBuyer(), name: 'Acme', email: 'calls@acme.example.com', password: 'buyerpass1' };

describe('buyer dialog', () => {
  it("needs a name and the buyer's sign-in; an admin names the customer", () => {
    expect(validateBuyer(emptyBuyer())).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      password: 'Password is required'
    });
    expect(validateBuyer({ ...filled, password: 'short' })).toEqual({
      password: 'Password must be at least 8 characters'
    });
    expect(validateBuyer(filled, { needsOwner: true })).toEqual({ user_id: 'Customer ID is required' });
  });

  it('keeps the password on an edit unless a new one is typed', () => {
    const form = buyerToForm({ name: 'Acme', email: 'calls@acme.example.com', phone: null, user_id: 2 });
    expect(validateBuyer(form, { editing: true })).toEqual({});
    expect(buyerBody(form, { editing: true })).toEqual({ name: 'Acme', email: 'calls@acme.example.com', phone: null });
    expect(buyerBody({ ...form, password: 'newpass123' }, { editing: true }).password).toBe('newpass123');
  });

  it('names the owner only when an admin creates one', () => {
    expect(buyerBody({ ...filled, user_id: '7', phone: ' +1 415 555 0100 ' }, { admin: true })).toEqual({
      name: 'Acme',
      email: 'calls@acme.example.com',
      password: 'buyerpass1',
      phone: '+1 415 555 0100',
      user_id: 7
    });
    expect(buyerBody({ ...filled, user_id: '7' })).not.toHaveProperty('user_id');
  });
});
