// A date typed or picked as the portal writes dates everywhere, "2026-11-27" (a native date input
// shows the browser's own format, mm/dd/yyyy in en-US): a text box, and the browser's calendar
// behind the icon, which fills the box.
import { useRef } from 'react';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { CalendarOutlined } from '@ant-design/icons';

import { isIsoDate } from '../utils/time';

type DateFieldProps = Omit<TextFieldProps, 'value' | 'onChange' | 'type'> & {
  value: string;
  onChange: (value: string) => void;
  /** Test id of the text box. */
  testid?: string;
};

export default function DateField({ value, onChange, testid, label, slotProps, ...props }: DateFieldProps) {
  const picker = useRef<HTMLInputElement>(null);
  const wrong = value !== '' && !isIsoDate(value);
  return (
    <TextField
      {...props}
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value.trim())}
      error={wrong}
      helperText={wrong ? 'YYYY-MM-DD' : props.helperText}
      slotProps={{
        ...slotProps,
        inputLabel: { shrink: true },
        htmlInput: {
          placeholder: 'YYYY-MM-DD',
          inputMode: 'numeric',
          maxLength: 10,
          'aria-label': typeof label === 'string' ? `${label} (YYYY-MM-DD)` : undefined,
          'data-testid': testid
        },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                size="small"
                edge="end"
                aria-label={typeof label === 'string' ? `Pick ${label}` : 'Pick a date'}
                onClick={() => picker.current?.showPicker()}
              >
                <CalendarOutlined />
              </IconButton>
              <input
                ref={picker}
                type="date"
                tabIndex={-1}
                aria-hidden
                value={isIsoDate(value) ? value : ''}
                onChange={(e) => onChange(e.target.value)}
                style={{ position: 'absolute', width: 0, height: 0, opacity: 0, border: 0, padding: 0 }}
              />
            </InputAdornment>
          )
        }
      }}
    />
  );
}
