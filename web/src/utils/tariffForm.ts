// The tariff dialog's values <-> the API's tariff body (portal_api/schemas/rating.py).
import type { TariffCreate, TariffOut } from '../client';
import type { FieldErrors } from './validation';

export interface TariffForm {
  name: string;
  currency: string;
  description: string;
}

type Currency = NonNullable<TariffCreate['currency']>;

export function emptyTariff(): TariffForm {
  return { name: '', currency: 'USD', description: '' };
}

export function tariffToForm(t: Pick<TariffOut, 'name' | 'currency' | 'description'>): TariffForm {
  return { name: t.name, currency: t.currency, description: t.description ?? '' };
}

/** `{field: message}`; the server also checks the code is a real ISO 4217 currency. */
export function validateTariff(values: TariffForm): FieldErrors<keyof TariffForm> {
  const errors: FieldErrors<keyof TariffForm> = {};
  if (!values.name.trim()) errors.name = 'Name is required';
  if (!/^[A-Za-z]{3}$/.test(values.currency.trim()))
    errors.currency = 'A three-letter currency code, such as USD or EUR';
  if (values.description.trim().length > 500) errors.description = 'Description must be at most 500 characters';
  return errors;
}

export function tariffBody(values: TariffForm): TariffCreate {
  return {
    name: values.name.trim(),
    // Typed text, shaped by validateTariff; the server answers 422 for a code it does not know.
    currency: values.currency.trim().toUpperCase() as Currency,
    description: values.description.trim() || null
  };
}
