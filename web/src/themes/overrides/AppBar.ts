import type { Theme } from '@mui/material/styles';
export default function AppBar(): NonNullable<Theme['components']> {
  return { MuiAppBar: { defaultProps: { elevation: 0 }, styleOverrides: { root: { backgroundImage: 'none' } } } };
}
