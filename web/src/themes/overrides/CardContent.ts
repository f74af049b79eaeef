// spec §9: card content padding 20
import type { Components, Theme } from '@mui/material/styles';
export default function CardContent(): Components<Omit<Theme, 'components'>> {
  return {
    MuiCardContent: {
      styleOverrides: { root: { padding: 20, '&:last-child': { paddingBottom: 20 } } }
    }
  };
}
