export default function Drawer(theme) {
  return {
    MuiDrawer: { styleOverrides: { paper: { backgroundImage: 'none', borderRightColor: theme.palette.divider } } }
  };
}
