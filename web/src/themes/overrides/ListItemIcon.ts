import type { Theme } from '@mui/material/styles';
export default function ListItemIcon(): NonNullable<Theme['components']> {
  return { MuiListItemIcon: { styleOverrides: { root: { minWidth: 24 } } } };
}
