import type { Components, Theme } from '@mui/material/styles';
export default function Alert(): Components<Omit<Theme, 'components'>> {
  return { MuiAlert: { styleOverrides: { root: { fontSize: '0.875rem', borderRadius: 4 } } } };
}
