// spec §9: progress bar height 6
import type { Components, Theme } from '@mui/material/styles';
export default function LinearProgress(): Components<Omit<Theme, 'components'>> {
  return {
    MuiLinearProgress: {
      styleOverrides: { root: { height: 6, borderRadius: 100 }, bar: { borderRadius: 100 } }
    }
  };
}
