import type { Components, Theme } from '@mui/material/styles';
export default function ButtonGroup(): Components<Omit<Theme, 'components'>> {
  return { MuiButtonGroup: { defaultProps: { disableRipple: true } } };
}
