// The theme's own variants (themes/overrides): Chip's soft 'light' and bordered 'combined',
// Button's 'dashed' and 'shadow'.
import '@mui/material/Button';
import '@mui/material/Chip';

declare module '@mui/material/Chip' {
  interface ChipPropsVariantOverrides {
    light: true;
    combined: true;
  }
}

declare module '@mui/material/Button' {
  interface ButtonPropsVariantOverrides {
    dashed: true;
    shadow: true;
  }
}
