// The filter bar of the call reports: dates, disposition and text parts, applied on Search.
import { useState } from 'react';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { SearchOutlined } from '@ant-design/icons';

import MainCard from './MainCard';
import { DISPOSITIONS, filterProblem, reportParams } from '../utils/report';

/**
 * `fields`: [name, label] pairs; `fromDate`/`toDate` become date pickers and `disposition` a
 * select. `onApply(params)` gets the filters that are set; `onProblem(text)` what is wrong.
 */
export default function CallFilters({ name, fields, size, onApply, onProblem }) {
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
    if (field !== 'disposition') return <TextField {...props} />;
    return (
      <TextField {...props} select slotProps={{ ...props.slotProps, select: { displayEmpty: true } }}>
        <MenuItem value="">All</MenuItem>
        {DISPOSITIONS.map((d) => (
          <MenuItem key={d} value={d}>
            {d}
          </MenuItem>
        ))}
      </TextField>
    );
  };

  return (
    <MainCard sx={{ mb: 2 }}>
      <form onSubmit={apply}>
        <Grid container spacing={2} sx={{ alignItems: 'center' }}>
          {fields.map(([field, label]) => (
            <Grid key={field} size={size}>
              {input(field, label)}
            </Grid>
          ))}
          <Grid size={size}>
            <Button type="submit" variant="contained" fullWidth startIcon={<SearchOutlined />} data-testid={`${name}-search`}>
              Search
            </Button>
          </Grid>
        </Grid>
      </form>
    </MainCard>
  );
}
