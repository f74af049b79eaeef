import type { Components, Theme } from '@mui/material/styles';
export default function ListItemIcon(): Components<Omit<Theme, 'components'>> {
  return { MuiListItemIcon: { styleOverrides: { root: { minWidth: 24 } } } };
}
