import type { Theme } from '@mui/material/styles';
export default function Badge(): NonNullable<Theme['components']> {
  return { MuiBadge: { styleOverrides: { standard: { minWidth: 16, height: 16, padding: 4 } } } };
}
