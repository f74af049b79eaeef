export default function Tabs() {
  return { MuiTabs: { styleOverrides: { root: { minHeight: 46 }, vertical: { overflow: 'visible' } } } };
}
