// Pieces every list screen has: its search box and filter selects, its error and success
// messages, a row's active switch and its edit and delete buttons, and the row saying the list
// is empty.
import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { DeleteOutlined, EditOutlined, SearchOutlined } from '@ant-design/icons';

import Notice from './Notice';
import { testId } from './testId';

interface SearchBoxProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

export function SearchBox({ label, value, onChange }: SearchBoxProps) {
  return (
    <TextField
      size="small"
      placeholder={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchOutlined />
            </InputAdornment>
          )
        },
        htmlInput: { 'aria-label': label }
      }}
    />
  );
}

/** A filter over `options` with "All" first; `onChange('')` for All. */
interface FilterSelectProps<Option extends string> {
  label: string;
  value: string | null | undefined;
  options: readonly Option[];
  onChange: (value: Option | '') => void;
}

export function FilterSelect<Option extends string>({ label, value, options, onChange }: FilterSelectProps<Option>) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value ?? ''}
      // The DOM's value is one of `options`, or '' for All.
      onChange={(e) => onChange(e.target.value as Option | '')}
      sx={{ minWidth: 130 }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">All</MenuItem>
      {options.map((option) => (
        <MenuItem key={option} value={option}>
          {option}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * The error (an alert that stays until closed) and the success message (a snackbar that fades);
 * test ids `{name}-error`, `{name}-notice`.
 */
interface ListMessagesProps {
  name: string;
  error: string;
  notice?: string;
  onCloseError: () => void;
  onCloseNotice?: () => void;
}

export function ListMessages({ name, error, notice, onCloseError, onCloseNotice }: ListMessagesProps) {
  return (
    <>
      {error && (
        <Alert severity="error" sx={{ m: 2 }} onClose={onCloseError} data-testid={`${name}-error`}>
          {error}
        </Alert>
      )}
      <Notice text={error ? '' : (notice ?? '')} onClose={onCloseNotice} testid={`${name}-notice`} />
    </>
  );
}

/** The row's active/inactive switch; test id `{name}-status`. */
interface StatusSwitchProps<Row extends { status?: string; name?: string }> {
  name: string;
  row: Row;
  label?: string | undefined;
  busy: boolean;
  onToggle: (row: Row) => void;
}

export function StatusSwitch<Row extends { status?: string; name?: string }>({
  name,
  row,
  label = row.name,
  busy,
  onToggle
}: StatusSwitchProps<Row>) {
  return (
    <Switch
      size="small"
      color="success"
      checked={row.status === 'active'}
      onChange={() => onToggle(row)}
      disabled={busy}
      slotProps={{ input: { 'aria-label': `Active ${label}`, ...testId(`${name}-status`) } }}
    />
  );
}

/** Edit and (when `onDelete` is given) delete buttons; test ids `{name}-edit`, `{name}-delete`. */
interface RowActionsProps {
  name: string;
  label: string;
  onEdit: () => void;
  onDelete?: (() => void) | undefined;
}

export function RowActions({ name, label, onEdit, onDelete }: RowActionsProps) {
  return (
    <>
      <IconButton size="small" aria-label={`Edit ${label}`} onClick={onEdit} data-testid={`${name}-edit`}>
        <EditOutlined />
      </IconButton>
      {onDelete && (
        <IconButton
          size="small"
          color="error"
          aria-label={`Delete ${label}`}
          onClick={onDelete}
          data-testid={`${name}-delete`}
        >
          <DeleteOutlined />
        </IconButton>
      )}
    </>
  );
}

/** Grey rows standing in for a list's first page while it loads: the table's frame shows at once. */
export function SkeletonRows({ columns, rows = 3 }: { columns: number; rows?: number }) {
  return Array.from({ length: rows }, (_, row) => (
    <TableRow key={row} data-testid="skeleton-row">
      {Array.from({ length: columns }, (_, cell) => (
        <TableCell key={cell}>
          <Skeleton variant="text" />
        </TableCell>
      ))}
    </TableRow>
  ));
}

/** The table row standing in for an empty list, across `colSpan` columns. */
export function EmptyRow({ colSpan, text }: { colSpan: number; text: ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} align="center" sx={{ color: 'text.secondary' }}>
        {text}
      </TableCell>
    </TableRow>
  );
}
