import type { Components, Theme } from '@mui/material/styles';
export default function Typography(): Components<Omit<Theme, 'components'>> {
  return { MuiTypography: { styleOverrides: { gutterBottom: { marginBottom: 12 } } } };
}
