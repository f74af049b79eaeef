// spec §9: tab min height 46
import type { Theme } from '@mui/material/styles';
export default function Tab(theme: Theme): NonNullable<Theme['components']> {
  return {
    MuiTab: {
      styleOverrides: {
        root: {
          minHeight: 46,
          color: theme.palette.text.primary,
          borderRadius: 4,
          '&:focus-visible': { outline: `2px solid ${theme.palette.secondary.dark}`, outlineOffset: -3 }
        }
      }
    }
  };
}
