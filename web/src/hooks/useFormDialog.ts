import { useCallback, useState } from 'react';
import { firstFieldErrors, type FieldErrors } from '../utils/validation';
import { failureOf } from './apiFailure';

/**
 * State of an add/edit dialog: values, field errors (the dialog's own checks or the server's),
 * a message for anything else, and `field(name, label)` props for a small MUI TextField whose
 * input carries `data-testid="{prefix}-{name}"`.
 */
export default function useFormDialog<Values extends object>(prefix: string, initialValues: Values) {
  const [values, setValues] = useState(initialValues);
  // Its own checks' or the server's (which may name any field).
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState('');
  const [saving, setSaving] = useState(false);

  const set = <K extends keyof Values>(name: K, value: Values[K]) => setValues((v) => ({ ...v, [name]: value }));

  const field = (name: keyof Values & string, label: string, { helperText = ' ' }: { helperText?: string } = {}) => ({
    label,
    value: values[name],
    // A text input's value is a string: the fields given to field() hold text.
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
    error: Boolean(errors[name]),
    helperText: errors[name] || helperText,
    fullWidth: true,
    size: 'small' as const,
    slotProps: { htmlInput: { 'data-testid': `${prefix}-${name}`, 'aria-label': label } }
  });

  /** Start over from `next` (the dialog opened again). */
  const reset = useCallback((next: Values) => {
    setValues(next);
    setErrors({});
    setMessage('');
  }, []);

  /** Check with `validate`, then `send()`; returns its result, or undefined when refused. */
  const submit = async <T>(
    validate: (values: Values) => Partial<Record<keyof Values, string>>,
    send: () => Promise<T>,
    fallback: string
  ): Promise<T | undefined> => {
    const found = validate(values);
    setErrors(found);
    setMessage('');
    if (Object.keys(found).length) return undefined;
    setSaving(true);
    try {
      return await send();
    } catch (err) {
      const failure = failureOf(err);
      const fieldErrors = firstFieldErrors(failure.errors);
      setErrors(fieldErrors);
      // A message for a field shown in the form needs no banner of its own.
      setMessage(Object.keys(fieldErrors).some((f) => f in values) ? '' : failure.message || fallback);
      return undefined;
    } finally {
      setSaving(false);
    }
  };

  return { values, set, errors, message, saving, field, reset, submit };
}
