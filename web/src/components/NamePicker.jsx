// Searchable pickers: `NamePicker` chooses a record by its name (never by typing an id) from
// `{id, name}` rows, `value` being the chosen id or null; `ZonePicker` chooses a time zone. The
// input carries `data-testid={testId}`.
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';

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
