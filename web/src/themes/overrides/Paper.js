export default function Paper() {
  return { MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } } };
}
