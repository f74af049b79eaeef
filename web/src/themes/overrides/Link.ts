import type { Theme } from '@mui/material/styles';
export default function Link(): NonNullable<Theme['components']> {
  return { MuiLink: { defaultProps: { underline: 'hover' } } };
}
