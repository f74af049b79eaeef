import type { Components, Theme } from '@mui/material/styles';
export default function Drawer(theme: Theme): Components<Omit<Theme, 'components'>> {
  return {
    MuiDrawer: { styleOverrides: { paper: { backgroundImage: 'none', borderRightColor: theme.palette.divider } } }
  };
}
