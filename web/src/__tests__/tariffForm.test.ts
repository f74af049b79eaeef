import { describe, expect, it } from 'vitest';
import { emptyTariff, tariffBody, tariffToForm, validateTariff } from '../utils/tariffForm';

describe('tariff dialog', () => {
  it('needs a name and a three-letter currency', () => {
    expect(validateTariff({ ...emptyTariff(), currency: 'dollars' })).toEqual({
      name: 'Name is required',
      currency: 'A three-letter currency code, such as USD or EUR'
    });
    expect(validateTariff({ ...emptyTariff(), name: 'Retail' })).toEqual({});
    expect(validateTariff({ ...emptyTariff(), name: 'Retail', description: 'x'.repeat(501) })).toHaveProperty(
      'description'
    );
  });

  it('sends the currency in capitals and no empty description', () => {
    expect(tariffBody({ name: ' Retail ', currency: 'eur', description: ' ' })).toEqual({
      name: 'Retail',
      currency: 'EUR',
      description: null
    });
    const listed = { id: 3, name: 'Retail', currency: 'GBP', description: null, status: 'active' };
    const form = tariffToForm(listed);
    expect(form).toEqual({ name: 'Retail', currency: 'GBP', description: '' });
  });
});
