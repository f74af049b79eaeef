// A searchable picker that chooses a row by its name (never by typing an id): customers, tariffs.
import { useEffect, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';

import { fetchActiveCustomers } from '../api/customers';
import { fetchActiveTariffs } from '../api/billing';

/**
 * `load()` resolves to rows with `id` and `name`; `value` is the chosen id ('' for none) and
 * `onChange(id, row)` gets the new one; `onLoaded(rows)` the options once read. The input
 * carries `data-testid={testid}`.
 */
export default function NamePicker({ load, label, value, onChange, onLoaded, testid, error, helperText = ' ', describe = () => '', sx, size = 'small' }) {
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
  return <NamePicker load={fetchActiveCustomers} label="Customer" describe={(c) => c.email} {...props} />;
}

export function TariffPicker(props) {
  return <NamePicker load={fetchActiveTariffs} label="Tariff" describe={(t) => t.currency} {...props} />;
}
