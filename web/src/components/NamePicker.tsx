// Searchable pickers that choose a record by its name (never by typing an id):
// - `NamePicker` (default) over `{id, name}` rows the caller has, `value` the chosen id or null;
// - `LoadedNamePicker` loads its rows itself (`load()`), shows a detail beside each name and tells
//   `onChange(id, row)`; `CustomerPicker` and `TariffPicker` are two of it;
// - `ZonePicker` chooses a time zone.
// Each input carries `data-testid` (testId / testid).
import { useEffect, useEffectEvent, useState } from 'react';
import Autocomplete, { type AutocompleteRenderInputParams } from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';

import { call } from '../api/client';
import { tariffsActive, usersActiveCustomers, type TariffBrief, type UserBrief } from '../client';
import { failureMessage } from '../hooks/apiFailure';

/** A row a picker chooses among. */
export interface Named {
  id: number;
  name: string;
}

/** The chosen id as a form holds it: a number, its text, or '' / null for none. */
export type PickedId = number | string | null | undefined;

interface InputProps {
  label: string;
  testId: string | undefined;
  error: string | undefined;
  helperText: string;
}

const input = ({ label, testId, error, helperText }: InputProps) =>
  function PickerInput(params: AutocompleteRenderInputParams) {
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

interface NamePickerProps<Row extends Named> {
  label: string;
  options: Row[];
  value: PickedId;
  onChange: (id: number | null) => void;
  testId?: string;
  error?: string | undefined;
  helperText?: string;
  disabled?: boolean;
  describe?: (row: Row) => string;
}

export default function NamePicker<Row extends Named>({
  label,
  options,
  value,
  onChange,
  testId,
  error,
  helperText = ' ',
  disabled,
  describe
}: NamePickerProps<Row>) {
  const chosen = options.find((o) => String(o.id) === String(value)) ?? null;
  return (
    <Autocomplete
      options={options}
      value={chosen}
      onChange={(_, option) => onChange(option ? option.id : null)}
      getOptionLabel={(o) => (describe ? describe(o) : o.name)}
      isOptionEqualToValue={(o, v) => o.id === v.id}
      disabled={disabled ?? false}
      renderInput={input({ label, testId, error, helperText })}
    />
  );
}

interface ZonePickerProps {
  label?: string;
  zones: string[];
  value: string;
  onChange: (zone: string) => void;
  testId?: string;
  error?: string | undefined;
  helperText?: string;
}

/** A time zone picker over `zones` (strings); a zone is always chosen. */
export function ZonePicker({
  label = 'Timezone',
  zones,
  value,
  onChange,
  testId,
  error,
  helperText = ' '
}: ZonePickerProps) {
  return (
    // Not clearable, yet empty ('' as null) until the form has a zone: hence `boolean`.
    <Autocomplete<string, false, boolean, false>
      options={zones}
      value={value || null}
      onChange={(_, zone) => onChange(zone ?? '')}
      disableClearable
      renderInput={input({ label, testId, error, helperText })}
    />
  );
}

interface LoadedNamePickerProps<Row extends Named> {
  load: () => Promise<Row[]>;
  label: string;
  value: PickedId;
  onChange: (id: number | '', row: Row | null) => void;
  onLoaded?: (rows: Row[]) => void;
  testid: string;
  error?: string | undefined;
  helperText?: string;
  describe?: (row: Row) => string;
  sx?: SxProps<Theme>;
  size?: 'small' | 'medium';
}

/**
 * `load()` resolves to rows with `id` and `name`; `value` is the chosen id ('' for none) and
 * `onChange(id, row)` gets the new one; `onLoaded(rows)` the options once read. The input
 * carries `data-testid={testid}`.
 */
export function LoadedNamePicker<Row extends Named>({
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
}: LoadedNamePickerProps<Row>) {
  const [options, setOptions] = useState<Row[]>([]);
  const [problem, setProblem] = useState('');
  // The screen's latest onLoaded, without loading again when the screen renders a new one.
  const loaded = useEffectEvent((rows: Row[]) => onLoaded?.(rows));

  useEffect(() => {
    let alive = true;
    load()
      .then((rows) => {
        if (!alive) return;
        const found = Array.isArray(rows) ? rows : [];
        setOptions(found);
        loaded(found);
      })
      .catch(
        (err: unknown) =>
          alive && setProblem(failureMessage(err, `The ${label.toLowerCase()} list could not be loaded.`))
      );
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

type PickerProps<Row extends Named> = Omit<LoadedNamePickerProps<Row>, 'load' | 'label' | 'describe'>;

const activeCustomers = async (): Promise<UserBrief[]> => (await call(usersActiveCustomers())) ?? [];
const activeTariffs = (): Promise<TariffBrief[]> => call(tariffsActive());

export function CustomerPicker(props: PickerProps<UserBrief>) {
  return <LoadedNamePicker load={activeCustomers} label="Customer" describe={(c) => c.email} {...props} />;
}

export function TariffPicker(props: PickerProps<TariffBrief>) {
  return <LoadedNamePicker load={activeTariffs} label="Tariff" describe={(t) => t.currency} {...props} />;
}
