import { describe, expect, it } from 'vitest';
import type { Theme } from '@mui/material/styles';
import { buildTheme } from '../themes';
import { PRESET_NAMES } from '../themes/theme/presets';

const COLORS = ['primary', 'secondary', 'error', 'info', 'success', 'warning'] as const;

/** The styles of a component's variants whose props are exactly `props`. */
function variantStyle(
  theme: Theme,
  component: 'MuiTableCell' | 'MuiButton' | 'MuiChip',
  props: Record<string, unknown>
): unknown[] {
  const variants: ReadonlyArray<{ props?: unknown; style?: unknown }> = theme.components?.[component]?.variants ?? [];
  return variants
    .filter(({ props: own }) => {
      const entries = own && typeof own === 'object' ? Object.entries(own) : [];
      return entries.length === Object.keys(props).length && entries.every(([k, val]) => props[k] === val);
    })
    .map((v) => v.style);
}

describe('theme (spec §9)', () => {
  const theme = buildTheme('dark');

  it('uses Public Sans and the breakpoints', () => {
    expect(theme.typography.fontFamily).toBe(`'Public Sans', sans-serif`);
    expect(theme.breakpoints.values).toEqual({ xs: 0, sm: 768, md: 1024, lg: 1266, xl: 1440 });
  });

  it('has the semantic colours with 10-shade scales', () => {
    for (const c of COLORS) {
      expect(theme.palette[c].main).toMatch(/^#/);
      expect(theme.palette[c].lighter).toBeTruthy();
      expect(theme.palette[c].darker).toBeTruthy();
    }
  });

  it('builds every preset in both modes', () => {
    for (const preset of PRESET_NAMES)
      for (const mode of ['light', 'dark'] as const) expect(buildTheme(mode, preset).palette.mode).toBe(mode);
  });

  it('sizes', () => {
    expect(theme.mixins.toolbar).toMatchObject({ minHeight: 60, paddingTop: 8, paddingBottom: 8 });
    expect(theme.components?.MuiCardContent?.styleOverrides?.root).toMatchObject({ padding: 20 });
    expect(theme.components?.MuiLinearProgress?.styleOverrides?.root).toMatchObject({ height: 6 });
    expect(theme.components?.MuiTab?.styleOverrides?.root).toMatchObject({ minHeight: 46 });
    expect(theme.components?.MuiTableCell?.styleOverrides?.root).toMatchObject({ padding: 12 });
    expect(variantStyle(theme, 'MuiTableCell', { size: 'small' })[0]).toMatchObject({ padding: 8 });
    expect(variantStyle(theme, 'MuiButton', { size: 'small' })[0]).toMatchObject({ minWidth: 56 });
    expect(variantStyle(theme, 'MuiChip', { size: 'large' })[0]).toMatchObject({ height: 40 });
  });

  it('custom Button variants dashed and shadow, Chip variants light and combined, for each colour', () => {
    for (const color of COLORS) {
      const dashed = variantStyle(theme, 'MuiButton', { variant: 'dashed', color })[0];
      expect(dashed).toMatchObject({ border: expect.stringContaining('dashed') });
      const shadow = variantStyle(theme, 'MuiButton', { variant: 'shadow', color })[0];
      expect(shadow).toMatchObject({ boxShadow: expect.stringMatching(/./) });
      const light = variantStyle(theme, 'MuiChip', { variant: 'light', color })[0];
      expect(light).toMatchObject({ color: theme.palette[color].main });
      const combined = variantStyle(theme, 'MuiChip', { variant: 'combined', color })[0];
      expect(combined).toMatchObject({ border: expect.stringContaining('solid') });
    }
  });
});
