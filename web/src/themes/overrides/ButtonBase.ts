import type { Theme } from '@mui/material/styles';
export default function ButtonBase(): NonNullable<Theme['components']> {
  return { MuiButtonBase: { defaultProps: { disableRipple: true } } };
}
