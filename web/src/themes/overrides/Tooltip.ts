import type { Theme } from '@mui/material/styles';
export default function Tooltip(theme: Theme): NonNullable<Theme['components']> {
  return {
    MuiTooltip: {
      styleOverrides: {
        tooltip: {
          color: theme.palette.mode === 'dark' ? theme.palette.grey[0] : theme.palette.background.paper,
          backgroundColor: theme.palette.mode === 'dark' ? theme.palette.grey[700] : theme.palette.grey[700]
        }
      }
    }
  };
}
