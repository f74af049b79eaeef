import { describe, expect, it } from 'vitest';
import { emptyTopup, newReference, topupBody, validateTopup } from '../utils/topupForm';

describe('top-up form', () => {
  it('needs a customer and an amount above 0 in cents (at most 2 places)', () => {
    expect(validateTopup(emptyTopup('ref-1'))).toEqual({
      user_id: 'Choose the customer to credit',
      amount: 'Amount must be more than 0, like 100.00'
    });
    const base = { ...emptyTopup('ref-1'), user_id: 7 };
    expect(validateTopup({ ...base, amount: '0' })).toHaveProperty('amount');
    expect(validateTopup({ ...base, amount: '10.12345' })).toHaveProperty('amount');
    expect(validateTopup({ ...base, amount: '12.345' })).toEqual({
      amount: "At most 2 decimals (cents): 12.345 can't be credited as typed"
    });
    expect(validateTopup({ ...base, amount: '1000000.01' })).toEqual({ amount: 'At most 1,000,000 in one top-up' });
    expect(validateTopup({ ...base, amount: '25.5' })).toEqual({});
  });

  it('checks the reference the server would refuse', () => {
    const ok = { ...emptyTopup(), user_id: 7, amount: '5' };
    expect(validateTopup({ ...ok, reference: 'bank transfer 12' })).toEqual({
      reference: 'Letters, digits and . _ : - only, at most 64'
    });
    expect(validateTopup({ ...ok, reference: '' })).toEqual({});
  });

  it('gives every new form a fresh reference the server accepts', () => {
    const a = newReference(1000, () => 0.1);
    expect(a).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
    expect(newReference(1000, () => 0.2)).not.toBe(a);
    expect(emptyTopup().reference).not.toBe(emptyTopup().reference);
  });

  it('sends the id the picker chose, the amount as typed and no empty reference', () => {
    expect(topupBody({ user_id: 7, amount: ' 25.50 ', reference: ' ', note: ' bank ' })).toEqual({
      user_id: 7,
      amount: '25.50',
      note: 'bank'
    });
    expect(topupBody({ user_id: 7, amount: '1', reference: 'r-1', note: '' }).reference).toBe('r-1');
  });
});
