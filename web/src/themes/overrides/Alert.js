export default function Alert() {
  return { MuiAlert: { styleOverrides: { root: { fontSize: '0.875rem', borderRadius: 4 } } } };
}
