// spec §9: card content padding 20
import type { Theme } from '@mui/material/styles';
export default function CardContent(): NonNullable<Theme['components']> {
  return {
    MuiCardContent: {
      styleOverrides: { root: { padding: 20, '&:last-child': { paddingBottom: 20 } } }
    }
  };
}
