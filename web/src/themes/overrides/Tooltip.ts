import type { Components, Theme } from '@mui/material/styles';
export default function Tooltip(theme: Theme): Components<Omit<Theme, 'components'>> {
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
