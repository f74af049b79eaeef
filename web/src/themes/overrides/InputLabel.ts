import type { Theme } from '@mui/material/styles';
export default function InputLabel(theme: Theme): NonNullable<Theme['components']> {
  return {
    MuiInputLabel: {
      styleOverrides: {
        root: { color: theme.palette.text.secondary },
        outlined: { lineHeight: '1rem', top: -4, '&.MuiInputLabel-shrink': { top: 0 } }
      }
    }
  };
}
