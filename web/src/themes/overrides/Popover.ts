import type { Theme } from '@mui/material/styles';
export default function Popover(theme: Theme): NonNullable<Theme['components']> {
  return { MuiPopover: { styleOverrides: { paper: { boxShadow: theme.customShadows.z1 } } } };
}
