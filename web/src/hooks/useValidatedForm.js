import { useState } from 'react';

/**
 * Form state shared by the sign-in and sign-up pages: a field's error shows once it was touched,
 * is re-checked as it changes, and a submit touches every field. `validate(values)` returns
 * `{field: message}`.
 */
export default function useValidatedForm(initialValues, validate) {
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState({});
  const [touched, setTouched] = useState({});
  const [serverError, setServerError] = useState('');
  const [submitting, setSubmitting] = useState(false);

  const change = (field) => (event) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (touched[field]) setErrors(validate(next));
  };
  const blur = (field) => () => {
    setTouched((t) => ({ ...t, [field]: true }));
    setErrors(validate(values));
  };
  const shown = (field) => (touched[field] && errors[field]) || '';

  /** Start a submit: clear the server message, check and show every field; true when valid. */
  const checkAll = () => {
    setServerError('');
    const found = validate(values);
    setErrors(found);
    setTouched(Object.fromEntries(Object.keys(values).map((f) => [f, true])));
    return Object.keys(found).length === 0;
  };

  return {
    values,
    errors,
    setErrors,
    change,
    blur,
    shown,
    checkAll,
    serverError,
    setServerError,
    submitting,
    setSubmitting
  };
}
