// The theme's own Chip variants (themes/overrides/Chip.js): soft 'light' and bordered 'combined'.
import '@mui/material/Chip';

declare module '@mui/material/Chip' {
  interface ChipPropsVariantOverrides {
    light: true;
    combined: true;
  }
}
