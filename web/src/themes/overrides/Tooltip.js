export default function Tooltip(theme) {
  return {
    MuiTooltip: {
      styleOverrides: {
        tooltip: {
          color: theme.palette.mode === 'dark' ? theme.palette.grey[0] : theme.palette.background.paper,
          backgroundColor: theme.palette.mode === 'dark' ? theme.palette.grey[700] : theme.palette.grey[700]
        }
      }
    }
  };
}
