import type { Theme } from '@mui/material/styles';
export default function ListItemButton(theme: Theme): NonNullable<Theme['components']> {
  return {
    MuiListItemButton: {
      styleOverrides: {
        root: {
          '&.Mui-selected': {
            color: theme.palette.primary.main,
            '& .MuiListItemIcon-root': { color: theme.palette.primary.main }
          }
        }
      }
    }
  };
}
