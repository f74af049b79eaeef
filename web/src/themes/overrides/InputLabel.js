export default function InputLabel(theme) {
  return {
    MuiInputLabel: {
      styleOverrides: {
        root: { color: theme.palette.text.secondary },
        outlined: { lineHeight: '1rem', top: -4, '&.MuiInputLabel-shrink': { top: 0 } }
      }
    }
  };
}
