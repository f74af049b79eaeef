import type { Theme } from '@mui/material/styles';
export default function IconButton(theme: Theme): NonNullable<Theme['components']> {
  return {
    MuiIconButton: {
      styleOverrides: {
        root: {
          borderRadius: 4,
          '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 1 }
        }
      },
      variants: [
        { props: { size: 'large' }, style: { width: 44, height: 44, fontSize: '1.25rem' } },
        { props: { size: 'medium' }, style: { width: 36, height: 36, fontSize: '1rem' } },
        { props: { size: 'small' }, style: { width: 30, height: 30, fontSize: '0.75rem' } }
      ]
    }
  };
}
