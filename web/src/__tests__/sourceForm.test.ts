import { describe, expect, it } from 'vitest';
import { emptyNumber, numberBody } from '../utils/numberForm';
import { emptySource, minorDigits, payoutText, sourceBody, sourceToForm, validateSource } from '../utils/sourceForm';

describe('source dialog', () => {
  it('needs a name, and an admin the customer', () => {
    expect(validateSource(emptySource())).toEqual({ name: 'Name is required' });
    expect(validateSource({ ...emptySource(), name: 'Radio' }, { admin: true })).toEqual({
      user_id: 'Choose the customer'
    });
    expect(validateSource({ ...emptySource(), name: 'x'.repeat(121), utm_source: 'u'.repeat(129) })).toEqual({
      name: 'Name must be at most 120 characters',
      utm_source: 'utm_source must be at most 128 characters'
    });
  });

  it("types a fixed amount in the currency's minor unit, a share as a percent up to 100", () => {
    const fixed = { ...emptySource(), name: 'Radio', payout_kind: 'fixed' as const };
    expect(validateSource({ ...fixed, payout_amount: '2.50' }, { currency: 'USD' })).toEqual({});
    expect(validateSource({ ...fixed, payout_amount: '2.505' }, { currency: 'USD' })).toEqual({
      payout_amount: 'An amount from 0 to 1,000,000 with at most 2 decimals, like 2.50'
    });
    expect(validateSource({ ...fixed, payout_amount: '-1' }, { currency: 'USD' })).toHaveProperty('payout_amount');
    expect(validateSource({ ...fixed, payout_amount: '250.5' }, { currency: 'JPY' })).toEqual({
      payout_amount: 'A whole amount from 0 to 1,000,000'
    });
    expect(validateSource({ ...fixed, payout_amount: '1.125' }, { currency: 'KWD' })).toEqual({});
    expect([minorDigits('USD'), minorDigits('JPY'), minorDigits(null), minorDigits('NOPE')]).toEqual([2, 0, 2, 2]);

    const share = { ...emptySource(), name: 'Partner', payout_kind: 'share' as const };
    expect(validateSource({ ...share, payout_share: '12.5' })).toEqual({});
    expect(validateSource({ ...share, payout_share: '100' })).toEqual({});
    for (const bad of ['100.01', '-1', 'ten', ''])
      expect(validateSource({ ...share, payout_share: bad })).toEqual({
        payout_share: 'A percent from 0 to 100, like 12.5'
      });
    // The figure the kind doesn't use is not checked: it is not sent.
    expect(validateSource({ ...share, payout_share: '5', payout_amount: 'junk' })).toEqual({});
  });

  it('sends only the figure the kind uses, a blank utm_source as none, the customer when an admin adds', () => {
    const values = { ...emptySource(), user_id: 7, name: ' Radio ', utm_source: ' ', payout_kind: 'fixed' as const };
    expect(sourceBody({ ...values, payout_amount: '2.5' })).toEqual({
      name: 'Radio',
      utm_source: null,
      payout_kind: 'fixed',
      payout_amount: '2.5'
    });
    expect(sourceBody({ ...values, payout_kind: 'share', payout_share: '10' }, { admin: true })).toEqual({
      name: 'Radio',
      utm_source: null,
      payout_kind: 'share',
      payout_share: '10',
      user_id: 7
    });
    expect(sourceBody({ ...values, payout_kind: 'none' })).toEqual({
      name: 'Radio',
      utm_source: null,
      payout_kind: 'none'
    });
  });

  it('reads a stored source back as typed, and shows its payout', () => {
    const stored = {
      user_id: 3,
      name: 'Radio',
      utm_source: null,
      payout_kind: 'share' as const,
      payout_amount: '2.5000',
      payout_share: '12.5000'
    };
    expect(sourceToForm(stored)).toEqual({
      user_id: 3,
      name: 'Radio',
      utm_source: '',
      payout_kind: 'share',
      payout_amount: '2.5',
      payout_share: '12.5'
    });
    expect(payoutText(stored)).toBe("12.5% of the buyer's payout");
    expect(payoutText({ ...stored, payout_kind: 'fixed' }, 'USD')).toBe('$2.50 per converted call');
    expect(payoutText({ ...stored, payout_kind: 'none' })).toBe('None');
  });

  it("sends an owned number's source on edit, never a new or pool number's", () => {
    const form = { ...emptyNumber(), source_id: 4 };
    expect(numberBody(form, { editing: true, owned: true })).toMatchObject({ source_id: 4 });
    expect(numberBody({ ...form, source_id: null }, { editing: true, owned: true })).toMatchObject({ source_id: null });
    expect(numberBody(form, { editing: true })).not.toHaveProperty('source_id');
    expect(numberBody({ ...form, number: '+442071838750' })).not.toHaveProperty('source_id');
  });
});
