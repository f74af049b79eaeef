// Build the semantic colour scales (10 shades each) for a preset and mode.
import { generate } from '@ant-design/colors';
import type { PaletteMode, SimplePaletteColorOptions } from '@mui/material/styles';
import { PRESET_PRIMARY, SEMANTIC_SEEDS } from './presets';

export const DARK_BACKGROUND = '#121212';
export const DARK_PAPER = '#1e1e1e';

const LIGHT_GREY = [
  '#ffffff',
  '#fafafa',
  '#f5f5f5',
  '#f0f0f0',
  '#d9d9d9',
  '#bfbfbf',
  '#8c8c8c',
  '#595959',
  '#262626',
  '#141414',
  // A50..A800
  '#fafafb',
  '#fafafa',
  '#f5f5f5',
  '#f0f0f0',
  '#e6ebf1'
] as const;
const DARK_GREY = [
  '#000000',
  '#141414',
  '#1e1e1e',
  '#595959',
  '#8c8c8c',
  '#bfbfbf',
  '#d9d9d9',
  '#f0f0f0',
  '#fafafa',
  '#ffffff',
  '#16191e',
  '#1e1e1e',
  '#262626',
  '#303030',
  '#2a2f36'
] as const;

function scale(seed: string, mode: PaletteMode): string[] {
  return mode === 'dark' ? generate(seed, { theme: 'dark', backgroundColor: DARK_PAPER }) : generate(seed);
}

/** Map a 10-shade scale onto MUI palette keys (lighter … darker, plus numeric shades). */
function toPaletteColor(
  shades: readonly string[],
  contrastText = '#fff'
): SimplePaletteColorOptions & Record<number, string> {
  // @ant-design/colors gives 10 shades for any seed.
  const shade = (i: number): string => shades[i] ?? '';
  return {
    lighter: shade(0),
    100: shade(1),
    200: shade(2),
    light: shade(3),
    400: shade(4),
    main: shade(5),
    dark: shade(6),
    700: shade(7),
    darker: shade(8),
    900: shade(9),
    contrastText
  };
}

export function paletteColors(mode: PaletteMode = 'light', presetColor = 'default') {
  const primarySeed = PRESET_PRIMARY[presetColor] ?? PRESET_PRIMARY.default ?? '#1677ff';
  const g = mode === 'dark' ? DARK_GREY : LIGHT_GREY;
  const grey = {
    0: g[0],
    50: g[1],
    100: g[2],
    200: g[3],
    300: g[4],
    400: g[5],
    500: g[6],
    600: g[7],
    700: g[7],
    800: g[8],
    900: g[9],
    A50: g[10],
    A100: g[11],
    A200: g[12],
    A400: g[13],
    A700: g[13],
    A800: g[14]
  };
  return {
    primary: toPaletteColor(scale(primarySeed, mode)),
    secondary: {
      lighter: grey[100],
      100: grey[100],
      200: grey[200],
      light: grey[300],
      400: grey[400],
      main: grey[500],
      600: grey[600],
      dark: grey[700],
      800: grey[800],
      darker: grey[900],
      A100: grey[0],
      A200: grey.A400,
      A300: grey.A700,
      contrastText: grey[0]
    },
    error: toPaletteColor(scale(SEMANTIC_SEEDS.error, mode)),
    warning: toPaletteColor(scale(SEMANTIC_SEEDS.warning, mode), mode === 'dark' ? '#141414' : '#fff'),
    info: toPaletteColor(scale(SEMANTIC_SEEDS.info, mode)),
    success: toPaletteColor(scale(SEMANTIC_SEEDS.success, mode)),
    grey
  };
}
