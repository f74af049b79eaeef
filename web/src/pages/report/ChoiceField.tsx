// A small select of the report's toolbar and filters: a first "none" choice, then [value, label] pairs.
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';

import { testId } from '../../components/testId';

interface Props<Value extends string> {
  label: string;
  value: Value | '';
  none: string;
  options: readonly (readonly [Value, string])[];
  onChange: (value: Value | '') => void;
  /** The input's test id; each option's is `{testid}-{value}`. */
  testid: string;
  sx?: SxProps<Theme>;
}

export default function ChoiceField<Value extends string>({
  label,
  value,
  none,
  options,
  onChange,
  testid,
  sx
}: Props<Value>) {
  return (
    <TextField
      select
      size="small"
      fullWidth={!sx}
      label={label}
      value={value}
      // The DOM's value is one of `options`, or '' for none.
      onChange={(e) => onChange(e.target.value as Value | '')}
      sx={sx}
      slotProps={{ htmlInput: testId(testid), select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">{none}</MenuItem>
      {options.map(([key, text]) => (
        <MenuItem key={key} value={key} data-testid={`${testid}-${key}`}>
          {text}
        </MenuItem>
      ))}
    </TextField>
  );
}
