export default function Badge() {
  return { MuiBadge: { styleOverrides: { standard: { minWidth: 16, height: 16, padding: 4 } } } };
}
