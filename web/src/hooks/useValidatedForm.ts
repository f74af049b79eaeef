import { useState, type ChangeEvent } from 'react';

/** `{field: message}`; an empty object when every field is valid. */
export type FieldErrors<Values> = Partial<Record<keyof Values, string>>;

/**
 * Form state shared by the sign-in and sign-up pages: a field's error shows once it was touched,
 * is re-checked as it changes, and a submit touches every field. `validate(values)` returns
 * `{field: message}`.
 */
export default function useValidatedForm<Values extends Record<string, string>>(
  initialValues: Values,
  validate: (values: Values) => FieldErrors<Values>
) {
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<FieldErrors<Values>>({});
  const [touched, setTouched] = useState<Partial<Record<keyof Values, boolean>>>({});
  const [serverError, setServerError] = useState('');
  const [submitting, setSubmitting] = useState(false);

  const change = (field: keyof Values) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (touched[field]) setErrors(validate(next));
  };
  const blur = (field: keyof Values) => () => {
    setTouched((t) => ({ ...t, [field]: true }));
    setErrors(validate(values));
  };
  const shown = (field: keyof Values): string => (touched[field] && errors[field]) || '';

  /** Start a submit: clear the server message, check and show every field; true when valid. */
  const checkAll = (): boolean => {
    setServerError('');
    const found = validate(values);
    setErrors(found);
    setTouched(Object.fromEntries(Object.keys(values).map((f) => [f, true])) as Record<keyof Values, boolean>);
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
