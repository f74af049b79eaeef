import type { Components, Theme } from '@mui/material/styles';
export default function ButtonBase(): Components<Omit<Theme, 'components'>> {
  return { MuiButtonBase: { defaultProps: { disableRipple: true } } };
}
