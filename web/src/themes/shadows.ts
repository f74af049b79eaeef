import { type Palette, alpha } from '@mui/material/styles';
import type { CustomShadows } from './augmentation';

/** Custom shadows, exposed as theme.customShadows. */
export default function customShadows(palette: Palette): CustomShadows {
  const dark = palette.mode === 'dark';
  const glow = (color: string): string => `0 14px 12px ${alpha(color, 0.2)}`;
  const ring = (color: string): string => `0 0 0 2px ${alpha(color, 0.2)}`;
  return {
    button: dark ? `0 2px 0 rgba(0, 0, 0, 0.05)` : `0 2px #0000000b`,
    text: `0 -1px 0 rgb(0 0 0 / 12%)`,
    z1: dark
      ? `0px 1px 1px rgb(0 0 0 / 14%), 0px 2px 1px rgb(0 0 0 / 12%), 0px 1px 3px rgb(0 0 0 / 20%)`
      : `0px 1px 4px ${alpha(palette.grey[900], 0.08)}`,
    primary: ring(palette.primary.main),
    secondary: ring(palette.secondary.main),
    error: ring(palette.error.main),
    warning: ring(palette.warning.main),
    info: ring(palette.info.main),
    success: ring(palette.success.main),
    grey: ring(palette.grey[500]),
    primaryButton: glow(palette.primary.main),
    secondaryButton: glow(palette.secondary.main),
    errorButton: glow(palette.error.main),
    warningButton: glow(palette.warning.main),
    infoButton: glow(palette.info.main),
    successButton: glow(palette.success.main),
    greyButton: glow(palette.grey[500])
  };
}
