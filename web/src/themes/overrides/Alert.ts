import type { Theme } from '@mui/material/styles';
export default function Alert(): NonNullable<Theme['components']> {
  return { MuiAlert: { styleOverrides: { root: { fontSize: '0.875rem', borderRadius: 4 } } } };
}
