// The tariff dialog's values <-> the API's tariff body (portal_api/schemas/rating.py).

export function emptyTariff() {
  return { name: '', currency: 'USD', description: '' };
}

export function tariffToForm(t) {
  return { name: t.name, currency: t.currency, description: t.description ?? '' };
}

/** `{field: message}`; the server also checks the code is a real ISO 4217 currency. */
export function validateTariff(values) {
  const errors = {};
  if (!values.name.trim()) errors.name = 'Name is required';
  if (!/^[A-Za-z]{3}$/.test(values.currency.trim()))
    errors.currency = 'A three-letter currency code, such as USD or EUR';
  if (values.description.trim().length > 500) errors.description = 'Description must be at most 500 characters';
  return errors;
}

export function tariffBody(values) {
  return {
    name: values.name.trim(),
    currency: values.currency.trim().toUpperCase(),
    description: values.description.trim() || null
  };
}
