// What this portal adds to MUI's theme (themes/shadows.ts, themes/theme/index.ts), so typed code can
// read theme.customShadows and the extra shades of each palette colour.
import '@mui/material/styles';

export interface CustomShadows {
  button: string;
  text: string;
  z1: string;
  primary: string;
  secondary: string;
  error: string;
  warning: string;
  info: string;
  success: string;
  grey: string;
  primaryButton: string;
  secondaryButton: string;
  errorButton: string;
  warningButton: string;
  infoButton: string;
  successButton: string;
  greyButton: string;
}

declare module '@mui/material/styles' {
  interface Theme {
    customShadows: CustomShadows;
  }
  interface ThemeOptions {
    customShadows?: CustomShadows;
  }
  interface PaletteColor {
    lighter?: string;
    darker?: string;
  }
  interface SimplePaletteColorOptions {
    lighter?: string;
    darker?: string;
  }
  /** The grey scale's extra shades (themes/theme/index.ts): 0 (white or black), A50 and A800. */
  interface Color {
    0: string;
    A50: string;
    A800: string;
  }
}

// The custom variants themes/overrides/Button.ts and Chip.ts style.
declare module '@mui/material/Button' {
  interface ButtonPropsVariantOverrides {
    dashed: true;
    shadow: true;
  }
}

declare module '@mui/material/Chip' {
  interface ChipPropsVariantOverrides {
    light: true;
    combined: true;
  }
  interface ChipPropsSizeOverrides {
    large: true;
  }
}
