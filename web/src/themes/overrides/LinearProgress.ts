// spec §9: progress bar height 6
import type { Theme } from '@mui/material/styles';
export default function LinearProgress(): NonNullable<Theme['components']> {
  return {
    MuiLinearProgress: {
      styleOverrides: { root: { height: 6, borderRadius: 100 }, bar: { borderRadius: 100 } }
    }
  };
}
