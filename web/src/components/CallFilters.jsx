// The filter bar of the reports (calls, wallet): dates, choices, a customer and text parts,
// applied on Search.
import { useState } from 'react';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { SearchOutlined } from '@ant-design/icons';

import MainCard from './MainCard';
import { CustomerPicker } from './NamePicker';
import { DISPOSITIONS, filterProblem, reportParams } from '../utils/report';

/**
 * `fields`: [name, label] pairs; `fromDate`/`toDate` become date pickers, `user_id` a customer
 * picker, and a field of `choices` (`{field: [value | [value, label]]}`) a select. `onApply(params)`
 * gets the filters that are set; `onProblem(text)` what is wrong. `dateSize`: the date pickers' grid
 * size (a native date input needs ~170 px for "mm/dd/yyyy" and its calendar button).
 */
export default function CallFilters({
  name,
  fields,
  size,
  dateSize = size,
  onApply,
  onProblem,
  choices = { disposition: DISPOSITIONS }
}) {
  const [draft, setDraft] = useState(() => Object.fromEntries(fields.map(([f]) => [f, ''])));

  const apply = (event) => {
    event.preventDefault();
    const problem = filterProblem(draft);
    if (problem) onProblem(problem);
    else onApply(reportParams(draft));
  };

  const input = (field, label) => {
    const props = {
      size: 'small',
      fullWidth: true,
      label,
      value: draft[field],
      onChange: (e) => setDraft((d) => ({ ...d, [field]: e.target.value })),
      slotProps: { htmlInput: { 'data-testid': `${name}-${field}` }, inputLabel: { shrink: true } }
    };
    if (field === 'fromDate' || field === 'toDate') return <TextField {...props} type="date" />;
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
    if (!choices[field]) return <TextField {...props} />;
    return (
      <TextField {...props} select slotProps={{ ...props.slotProps, select: { displayEmpty: true } }}>
        <MenuItem value="">All</MenuItem>
        {choices[field].map((choice) => {
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
