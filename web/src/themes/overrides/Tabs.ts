import type { Components, Theme } from '@mui/material/styles';
export default function Tabs(): Components<Omit<Theme, 'components'>> {
  return { MuiTabs: { styleOverrides: { root: { minHeight: 46 }, vertical: { overflow: 'visible' } } } };
}
