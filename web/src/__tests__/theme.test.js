import { describe, expect, it } from 'vitest';
import { buildTheme } from '../themes';
import { PRESET_NAMES } from '../themes/theme/presets';

const variantStyle = (theme, component, props) =>
  theme.components[component].variants
    .filter(
      (v) =>
        Object.entries(props).every(([k, val]) => v.props[k] === val) &&
        Object.keys(v.props).length === Object.keys(props).length
    )
    .map((v) => v.style);

describe('theme (spec §9)', () => {
  const theme = buildTheme('dark');

  it('uses Public Sans and the breakpoints', () => {
    expect(theme.typography.fontFamily).toBe(`'Public Sans', sans-serif`);
    expect(theme.breakpoints.values).toEqual({ xs: 0, sm: 768, md: 1024, lg: 1266, xl: 1440 });
  });

  it('has the semantic colours with 10-shade scales', () => {
    for (const c of ['primary', 'secondary', 'error', 'info', 'success', 'warning']) {
      expect(theme.palette[c].main).toMatch(/^#/);
      expect(theme.palette[c].lighter).toBeTruthy();
      expect(theme.palette[c].darker).toBeTruthy();
    }
  });

  it('builds every preset in both modes', () => {
    for (const preset of PRESET_NAMES)
      for (const mode of ['light', 'dark']) expect(buildTheme(mode, preset).palette.mode).toBe(mode);
  });

  it('sizes', () => {
    expect(theme.mixins.toolbar).toMatchObject({ minHeight: 60, paddingTop: 8, paddingBottom: 8 });
    expect(theme.components.MuiCardContent.styleOverrides.root.padding).toBe(20);
    expect(theme.components.MuiLinearProgress.styleOverrides.root.height).toBe(6);
    expect(theme.components.MuiTab.styleOverrides.root.minHeight).toBe(46);
    expect(theme.components.MuiTableCell.styleOverrides.root.padding).toBe(12);
    expect(variantStyle(theme, 'MuiTableCell', { size: 'small' })[0].padding).toBe(8);
    expect(variantStyle(theme, 'MuiButton', { size: 'small' })[0].minWidth).toBe(56);
    expect(variantStyle(theme, 'MuiChip', { size: 'large' })[0].height).toBe(40);
  });

  it('custom Button variants dashed and shadow, Chip variants light and combined, for each colour', () => {
    for (const color of ['primary', 'secondary', 'error', 'info', 'success', 'warning']) {
      expect(variantStyle(theme, 'MuiButton', { variant: 'dashed', color })[0].border).toContain('dashed');
      expect(variantStyle(theme, 'MuiButton', { variant: 'shadow', color })[0].boxShadow).toBeTruthy();
      expect(variantStyle(theme, 'MuiChip', { variant: 'light', color })[0].color).toBe(theme.palette[color].main);
      expect(variantStyle(theme, 'MuiChip', { variant: 'combined', color })[0].border).toContain('solid');
    }
  });
});
