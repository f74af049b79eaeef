import { useState, type ChangeEvent } from 'react';
import type { FieldErrors } from '../utils/validation';

/**
 * Form state shared by the sign-in and sign-up pages: a field's error shows once it was touched,
 * is re-checked as it changes, and a submit touches every field. `validate(values)` returns
 * `{field: message}`.
 */
export default function useValidatedForm<Values extends Record<string, string>>(
  initialValues: Values,
  validate: (values: Values) => FieldErrors<keyof Values & string>
) {
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<FieldErrors<keyof Values & string>>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [serverError, setServerError] = useState('');
  const [submitting, setSubmitting] = useState(false);

  const change = (field: keyof Values & string) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (touched[field]) setErrors(validate(next));
  };
  const blur = (field: keyof Values & string) => () => {
    setTouched((t) => ({ ...t, [field]: true }));
    setErrors(validate(values));
  };
  const shown = (field: keyof Values & string): string => (touched[field] && errors[field]) || '';

  /** Start a submit: clear the server message, check and show every field; true when valid. */
  const checkAll = (): boolean => {
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
