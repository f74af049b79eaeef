// Searchable pickers that choose a record by its name (never by typing an id):
// - `NamePicker` (default) over `{id, name}` rows the caller has, `value` the chosen id or null;
// - `LoadedNamePicker` loads its rows itself (`load()`), shows a detail beside each name and tells
//   `onChange(id, row)`; `CustomerPicker` and `TariffPicker` are two of it;
// - `ZonePicker` chooses a time zone.
// Each input carries `data-testid` (testId / testid).
import { useEffect, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';

import { fetchActiveCustomers } from '../api/customers';
import { fetchActiveTariffs } from '../api/billing';

const input = ({ label, testId, error, helperText }) =>
  function PickerInput(params) {
    return (
      <TextField
        {...params}
        label={label}
        size="small"
        error={Boolean(error)}
        helperText={error || helperText}
        slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': testId } }}
      />
    );
  };

export default function NamePicker({
  label,
  options,
  value,
  onChange,
  testId,
  error,
  helperText = ' ',
  disabled,
  describe
}) {
  const chosen = options.find((o) => String(o.id) === String(value)) ?? null;
  return (
    <Autocomplete
      options={options}
      value={chosen}
      onChange={(_, option) => onChange(option ? option.id : null)}
      getOptionLabel={(o) => (describe ? describe(o) : o.name)}
      isOptionEqualToValue={(o, v) => o.id === v.id}
      disabled={disabled}
      renderInput={input({ label, testId, error, helperText })}
    />
  );
}

/** A time zone picker over `zones` (strings); a zone is always chosen. */
export function ZonePicker({ label = 'Timezone', zones, value, onChange, testId, error, helperText = ' ' }) {
  return (
    <Autocomplete
      options={zones}
      value={value || null}
      onChange={(_, zone) => onChange(zone ?? '')}
      disableClearable
      renderInput={input({ label, testId, error, helperText })}
    />
  );
}

/**
 * `load()` resolves to rows with `id` and `name`; `value` is the chosen id ('' for none) and
 * `onChange(id, row)` gets the new one; `onLoaded(rows)` the options once read. The input
 * carries `data-testid={testid}`.
 */
export function LoadedNamePicker({
  load,
  label,
  value,
  onChange,
  onLoaded,
  testid,
  error,
  helperText = ' ',
  describe = () => '',
  sx,
  size = 'small'
}) {
  const [options, setOptions] = useState([]);
  const [problem, setProblem] = useState('');

  useEffect(() => {
    let alive = true;
    load()
      .then((rows) => {
        if (!alive) return;
        const found = Array.isArray(rows) ? rows : [];
        setOptions(found);
        onLoaded?.(found);
      })
      .catch((err) => alive && setProblem(err?.message || `The ${label.toLowerCase()} list could not be loaded.`));
    return () => {
      alive = false;
    };
  }, [load, label]);

  const chosen = options.find((o) => String(o.id) === String(value)) ?? null;
  return (
    <Autocomplete
      options={options}
      value={chosen}
      onChange={(_, row) => onChange(row ? row.id : '', row)}
      getOptionLabel={(o) => o.name}
      getOptionKey={(o) => o.id}
      isOptionEqualToValue={(o, v) => o.id === v.id}
      renderOption={(props, o) => {
        const { key, ...rest } = props;
        const extra = describe(o);
        return (
          <li key={key} {...rest}>
            {o.name}
            {extra && <span style={{ opacity: 0.6, marginLeft: 8 }}>{extra}</span>}
          </li>
        );
      }}
      sx={sx}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          size={size}
          error={Boolean(error || problem)}
          helperText={error || problem || helperText}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': testid } }}
        />
      )}
    />
  );
}

export function CustomerPicker(props) {
  return <LoadedNamePicker load={fetchActiveCustomers} label="Customer" describe={(c) => c.email} {...props} />;
}

export function TariffPicker(props) {
  return <LoadedNamePicker load={fetchActiveTariffs} label="Tariff" describe={(t) => t.currency} {...props} />;
}
