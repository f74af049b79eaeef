// The report's column chooser: a menu of checkboxes, the choice kept per user (and in the URL).
import { useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { TableOutlined } from '@ant-design/icons';

import type { ReportColumn } from '../../client';
import { COLUMNS } from '../../utils/reportView';

interface Props {
  columns: ReportColumn[];
  admin: boolean;
  onChange: (columns: ReportColumn[]) => void;
}

export default function ColumnChooser({ columns, admin, onChange }: Props) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const toggle = (key: ReportColumn) => {
    const next = columns.includes(key) ? columns.filter((c) => c !== key) : [...columns, key];
    // In the table's order, and never none.
    if (next.length) onChange(COLUMNS.map((c) => c.key).filter((c) => next.includes(c)));
  };
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<TableOutlined />}
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid="report-columns"
      >
        Columns
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {COLUMNS.filter((c) => admin || !c.admin).map((c) => (
          <MenuItem key={c.key} dense onClick={() => toggle(c.key)} data-testid={`report-column-${c.key}`}>
            <Checkbox size="small" checked={columns.includes(c.key)} sx={{ p: 0, mr: 1 }} />
            <ListItemText primary={c.label} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
