import { describe, expect, it } from 'vitest';
import { emptyNumber, numberBody, numberToForm, setupTotal, validateNumber } from '../utils/numberForm';

describe('number dialog', () => {
  it('needs the number; fees are amounts with at most 4 places', () => {
    expect(validateNumber(emptyNumber())).toEqual({ number: 'Number is required' });
    expect(
      validateNumber({
        ...emptyNumber(),
        number: '+442071838750',
        iso2: 'GBR',
        setup_fee: '1.23456',
        monthly_fee: '-2'
      })
    ).toEqual({
      iso2: 'A two-letter country code, such as GB',
      setup_fee: 'Setup fee must be an amount like 1.50',
      monthly_fee: 'Monthly fee must be an amount like 1.50'
    });
  });

  it('sends the country only when given; an edit sends only fees', () => {
    expect(numberBody({ ...emptyNumber(), number: ' +44 20 7183 8750 ', setup_fee: '2.5' })).toEqual({
      number: '+44 20 7183 8750',
      setup_fee: '2.5',
      monthly_fee: '0',
      vendor_id: null
    });
    expect(numberBody({ ...emptyNumber(), number: '+80012345678', iso2: 'gb' })).toMatchObject({ iso2: 'GB' });
    const form = numberToForm({ number: '+442071838750', setup_fee: '3.0000', monthly_fee: '1.2500' });
    expect(numberBody(form, { editing: true })).toEqual({ setup_fee: '3', monthly_fee: '1.25', vendor_id: null });
    // The vendor, picked by name, goes as its id; an edit can clear it.
    expect(
      numberBody(numberToForm({ number: '+442071838750', setup_fee: '0', monthly_fee: '0', vendor_id: 4 }), {
        editing: true
      }).vendor_id
    ).toBe(4);
  });

  it('adds setup fees without floating-point dust', () => {
    expect(setupTotal([{ setup_fee: '0.1000' }, { setup_fee: '0.2000' }])).toBe(0.3);
    expect(setupTotal([])).toBe(0);
  });
});
