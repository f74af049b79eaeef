import { useState } from 'react';
import { firstFieldErrors } from '../utils/validation';

/**
 * State of an add/edit dialog: values, field errors (the dialog's own checks or the server's),
 * a message for anything else, and `field(name, label)` props for a small MUI TextField whose
 * input carries `data-testid="{prefix}-{name}"`.
 */
export default function useFormDialog(prefix, initialValues) {
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState({});
  const [message, setMessage] = useState('');
  const [saving, setSaving] = useState(false);

  const set = (name, value) => setValues((v) => ({ ...v, [name]: value }));

  const field = (name, label, { helperText = ' ', ...extra } = {}) => ({
    label,
    value: values[name],
    onChange: (e) => set(name, e.target.value),
    error: Boolean(errors[name]),
    helperText: errors[name] || helperText,
    fullWidth: true,
    size: 'small',
    slotProps: { htmlInput: { 'data-testid': `${prefix}-${name}`, 'aria-label': label } },
    ...extra
  });

  /** Start over from `next` (the dialog opened again). */
  const reset = (next) => {
    setValues(next);
    setErrors({});
    setMessage('');
  };

  /** Check with `validate`, then `send()`; returns its result, or undefined when refused. */
  const submit = async (validate, send, fallback) => {
    const found = validate(values);
    setErrors(found);
    setMessage('');
    if (Object.keys(found).length) return undefined;
    setSaving(true);
    try {
      return await send();
    } catch (err) {
      const fieldErrors = firstFieldErrors(err?.errors);
      setErrors(fieldErrors);
      // A message for a field shown in the form needs no banner of its own.
      setMessage(Object.keys(fieldErrors).some((f) => f in values) ? '' : err?.message || fallback);
      return undefined;
    } finally {
      setSaving(false);
    }
  };

  return { values, set, errors, message, saving, field, reset, submit };
}
