import type { Theme } from '@mui/material/styles';
export default function Drawer(theme: Theme): NonNullable<Theme['components']> {
  return {
    MuiDrawer: { styleOverrides: { paper: { backgroundImage: 'none', borderRightColor: theme.palette.divider } } }
  };
}
