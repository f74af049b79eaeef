// The filter bar of the reports (calls, wallet): dates, choices, a customer and text parts,
// applied on Search.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Grid, { type GridProps } from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { SearchOutlined } from '@ant-design/icons';

import DateField from './DateField';
import MainCard from './MainCard';
import type { SelectOption } from './FormDialog';
import { CustomerPicker } from './NamePicker';
import type { PageQuery } from '../hooks/usePagedList';
import { DISPOSITIONS, filterProblem, reportParams } from '../utils/report';

/** The filters that are set, trimmed, as the query string carries them. */
export type ReportFilters = Record<string, string>;

/**
 * A report page's query: the page, the search box when a list sends it, and the filters as typed
 * (text; the server parses and checks them).
 */
export type FilterQuery = Omit<PageQuery, 'params'> & { params?: string } & Partial<Record<string, string | number>>;

interface CallFiltersProps {
  /** Test ids: `{name}-{field}`, `{name}-search` */
  name: string;
  fields: ReadonlyArray<readonly [string, string]>;
  size: GridProps['size'];
  dateSize?: GridProps['size'];
  onApply: (filters: ReportFilters) => void;
  onProblem: (problem: string) => void;
  choices?: Record<string, readonly SelectOption[]>;
}

/**
 * `fields`: [name, label] pairs; `fromDate`/`toDate` become date fields (YYYY-MM-DD, DateField), `user_id` a customer
 * picker, and a field of `choices` (`{field: [value | [value, label]]}`) a select. `onApply(params)`
 * gets the filters that are set; `onProblem(text)` what is wrong. `dateSize`: the date fields' grid
 * size.
 */
export default function CallFilters({
  name,
  fields,
  size,
  dateSize = size,
  onApply,
  onProblem,
  choices = { disposition: DISPOSITIONS }
}: CallFiltersProps) {
  const [draft, setDraft] = useState<Record<string, string | number>>(() =>
    Object.fromEntries(fields.map(([f]) => [f, '']))
  );

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem: string = filterProblem(draft);
    if (problem) onProblem(problem);
    else onApply(reportParams(draft));
  };

  const input = (field: string, label: string) => {
    const props = {
      size: 'small' as const,
      fullWidth: true,
      label,
      value: draft[field],
      onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
        setDraft((d) => ({ ...d, [field]: e.target.value })),
      slotProps: { htmlInput: { 'data-testid': `${name}-${field}` }, inputLabel: { shrink: true } }
    };
    if (field === 'fromDate' || field === 'toDate')
      return (
        <DateField
          size="small"
          fullWidth
          label={label}
          value={String(draft[field] ?? '')}
          onChange={(value) => setDraft((d) => ({ ...d, [field]: value }))}
          testid={`${name}-${field}`}
        />
      );
    if (field === 'user_id') {
      return (
        <CustomerPicker
          value={draft.user_id}
          onChange={(id) => setDraft((d) => ({ ...d, user_id: id }))}
          testid={`${name}-user_id`}
          helperText=""
        />
      );
    }
    const options = choices[field];
    if (!options) return <TextField {...props} />;
    return (
      <TextField {...props} select slotProps={{ ...props.slotProps, select: { displayEmpty: true } }}>
        <MenuItem value="">All</MenuItem>
        {options.map((choice) => {
          const [value, text] = Array.isArray(choice) ? choice : [choice, choice];
          return (
            <MenuItem key={value} value={value}>
              {text}
            </MenuItem>
          );
        })}
      </TextField>
    );
  };

  return (
    <MainCard sx={{ mb: 2 }}>
      <form onSubmit={apply}>
        <Grid container spacing={2} sx={{ alignItems: 'center' }}>
          {fields.map(([field, label]) => (
            <Grid key={field} size={field === 'fromDate' || field === 'toDate' ? dateSize : size}>
              {input(field, label)}
            </Grid>
          ))}
          <Grid size={size}>
            <Button
              type="submit"
              variant="contained"
              fullWidth
              startIcon={<SearchOutlined />}
              data-testid={`${name}-search`}
            >
              Search
            </Button>
          </Grid>
        </Grid>
      </form>
    </MainCard>
  );
}
