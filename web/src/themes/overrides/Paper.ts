import type { Theme } from '@mui/material/styles';
export default function Paper(): NonNullable<Theme['components']> {
  return { MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } } };
}
