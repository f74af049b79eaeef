export default function AppBar() {
  return { MuiAppBar: { defaultProps: { elevation: 0 }, styleOverrides: { root: { backgroundImage: 'none' } } } };
}
