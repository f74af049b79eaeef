import type { Components, Theme } from '@mui/material/styles';
export default function AppBar(): Components<Omit<Theme, 'components'>> {
  return { MuiAppBar: { defaultProps: { elevation: 0 }, styleOverrides: { root: { backgroundImage: 'none' } } } };
}
