import type { Theme } from '@mui/material/styles';
export default function Tabs(): NonNullable<Theme['components']> {
  return { MuiTabs: { styleOverrides: { root: { minHeight: 46 }, vertical: { overflow: 'visible' } } } };
}
