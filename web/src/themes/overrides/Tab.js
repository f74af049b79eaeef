// spec §9: tab min height 46
export default function Tab(theme) {
  return {
    MuiTab: {
      styleOverrides: {
        root: {
          minHeight: 46,
          color: theme.palette.text.primary,
          borderRadius: 4,
          '&:focus-visible': { outline: `2px solid ${theme.palette.secondary.dark}`, outlineOffset: -3 }
        }
      }
    }
  };
}
