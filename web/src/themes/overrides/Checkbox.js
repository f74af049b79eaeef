export default function Checkbox(theme) {
  return {
    MuiCheckbox: {
      styleOverrides: {
        root: { color: theme.palette.mode === 'dark' ? theme.palette.grey[500] : theme.palette.grey[300] }
      }
    }
  };
}
