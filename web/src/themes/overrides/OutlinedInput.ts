import { type Theme, alpha } from '@mui/material/styles';

export default function OutlinedInput(theme: Theme): NonNullable<Theme['components']> {
  const p = theme.palette.primary;
  return {
    MuiOutlinedInput: {
      styleOverrides: {
        input: { padding: '10.5px 14px 10.5px 12px' },
        notchedOutline: { borderColor: theme.palette.mode === 'dark' ? alpha('#fff', 0.2) : theme.palette.grey[300] },
        root: {
          '&:hover .MuiOutlinedInput-notchedOutline': { borderColor: p.light },
          '&.Mui-focused': { boxShadow: `0 0 0 2px ${alpha(p.main, 0.2)}` },
          '&.Mui-focused .MuiOutlinedInput-notchedOutline': { border: `1px solid ${p.light}` },
          '&.Mui-error.Mui-focused': { boxShadow: `0 0 0 2px ${alpha(theme.palette.error.main, 0.2)}` }
        }
      }
    }
  };
}
