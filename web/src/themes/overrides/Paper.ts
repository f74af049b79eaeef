import type { Components, Theme } from '@mui/material/styles';
export default function Paper(): Components<Omit<Theme, 'components'>> {
  return { MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } } };
}
