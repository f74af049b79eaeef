import type { Theme } from '@mui/material/styles';
export default function ButtonGroup(): NonNullable<Theme['components']> {
  return { MuiButtonGroup: { defaultProps: { disableRipple: true } } };
}
