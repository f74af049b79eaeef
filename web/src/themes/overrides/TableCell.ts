// spec §9: table cell padding 12 (8 when small)
import type { Theme } from '@mui/material/styles';
export default function TableCell(theme: Theme): NonNullable<Theme['components']> {
  return {
    MuiTableCell: {
      styleOverrides: {
        root: { fontSize: '0.875rem', padding: 12, borderColor: theme.palette.divider },
        head: { fontWeight: 600, paddingTop: 20, paddingBottom: 20 }
      },
      variants: [{ props: { size: 'small' }, style: { padding: 8 } }]
    }
  };
}
