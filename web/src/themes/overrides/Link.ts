import type { Components, Theme } from '@mui/material/styles';
export default function Link(): Components<Omit<Theme, 'components'>> {
  return { MuiLink: { defaultProps: { underline: 'hover' } } };
}
