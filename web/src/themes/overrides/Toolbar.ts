// spec §9: toolbar minimum height 60 with 8 px padding above and below
import type { Theme } from '@mui/material/styles';
export default function Toolbar(): NonNullable<Theme['components']> {
  return {
    MuiToolbar: {
      styleOverrides: {
        root: { minHeight: 60, paddingTop: 8, paddingBottom: 8, '@media (min-width: 0px)': { minHeight: 60 } }
      }
    }
  };
}
