import { type PaletteMode, type PaletteOptions, alpha } from '@mui/material/styles';
import { paletteColors, DARK_BACKGROUND, DARK_PAPER } from './theme';

/** Palette options for createTheme (light or dark, with a preset). */
export default function buildPalette(mode: PaletteMode = 'dark', presetColor = 'default'): PaletteOptions {
  const colors = paletteColors(mode, presetColor);
  const { grey } = colors;
  const dark = mode === 'dark';
  return {
    mode,
    common: { black: '#000', white: '#fff' },
    ...colors,
    text: dark
      ? { primary: alpha('#fff', 0.87), secondary: alpha('#fff', 0.55), disabled: alpha('#fff', 0.3) }
      : { primary: grey[700], secondary: grey[500], disabled: grey[400] },
    action: { disabled: grey[300] },
    divider: dark ? alpha('#fff', 0.1) : grey[200],
    background: dark ? { paper: DARK_PAPER, default: DARK_BACKGROUND } : { paper: grey[0], default: grey.A50 }
  };
}
