import type { Theme } from '@mui/material/styles';
export default function Checkbox(theme: Theme): NonNullable<Theme['components']> {
  return {
    MuiCheckbox: {
      styleOverrides: {
        root: { color: theme.palette.mode === 'dark' ? theme.palette.grey[500] : theme.palette.grey[300] }
      }
    }
  };
}
