import type { Theme } from '@mui/material/styles';
export default function Typography(): NonNullable<Theme['components']> {
  return { MuiTypography: { styleOverrides: { gutterBottom: { marginBottom: 12 } } } };
}
