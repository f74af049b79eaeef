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
  // The menu's own choice while it is open: a second click counts from the first, not from the
  // page's columns, which follow a moment later.
  const [chosen, setChosen] = useState(columns);
  const toggle = (key: ReportColumn) => {
    const next = chosen.includes(key) ? chosen.filter((c) => c !== key) : [...chosen, key];
    if (!next.length) return; // never none
    const ordered = COLUMNS.map((c) => c.key).filter((c) => next.includes(c)); // the table's order
    setChosen(ordered);
    onChange(ordered);
  };
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<TableOutlined />}
        onClick={(e) => {
          setChosen(columns);
          setAnchor(e.currentTarget);
        }}
        data-testid="report-columns"
      >
        Columns
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {COLUMNS.filter((c) => admin || !c.admin).map((c) => (
          <MenuItem key={c.key} dense onClick={() => toggle(c.key)} data-testid={`report-column-${c.key}`}>
            <Checkbox size="small" checked={chosen.includes(c.key)} sx={{ p: 0, mr: 1 }} />
            <ListItemText primary={c.label} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
