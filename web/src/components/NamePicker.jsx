// A searchable picker that chooses a record by its name (never by typing an id): `options` are
// `{id, name}` rows, `value` the chosen id or null. The input carries `data-testid={testId}`.
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';

export default function NamePicker({ label, options, value, onChange, testId, error, helperText = ' ', disabled, describe }) {
  const chosen = options.find((o) => String(o.id) === String(value)) ?? null;
  return (
    <Autocomplete
      options={options}
      value={chosen}
      onChange={(_, option) => onChange(option ? option.id : null)}
      getOptionLabel={(o) => (describe ? describe(o) : o.name)}
      isOptionEqualToValue={(o, v) => o.id === v.id}
      disabled={disabled}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          size="small"
          error={Boolean(error)}
          helperText={error || helperText}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': testId } }}
        />
      )}
    />
  );
}

/** A searchable time zone picker over `zones` (strings). */
export function ZonePicker({ label = 'Timezone', zones, value, onChange, testId, error, helperText = ' ' }) {
  return (
    <Autocomplete
      options={zones}
      value={value || null}
      onChange={(_, zone) => onChange(zone ?? '')}
      disableClearable
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          size="small"
          error={Boolean(error)}
          helperText={error || helperText}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': testId } }}
        />
      )}
    />
  );
}
