// MuiButton: variants contained, outlined, text (built in) and dashed, shadow (custom).
import { type Theme, alpha } from '@mui/material/styles';
import { SEMANTIC_COLORS } from '../colors';

type ButtonVariants = NonNullable<NonNullable<NonNullable<Theme['components']>['MuiButton']>['variants']>;

const PADDING = {
  dashed: { small: '3px 9px', medium: '5px 15px', large: '7px 21px' },
  shadow: { small: '4px 10px', medium: '6px 16px', large: '8px 22px' }
} as const;
const PADDED_VARIANTS = ['dashed', 'shadow'] as const;
const SIZES = ['small', 'medium', 'large'] as const;

export default function Button(theme: Theme): NonNullable<Theme['components']> {
  const disabled = {
    '&.Mui-disabled': {
      color: theme.palette.text.disabled,
      backgroundColor: theme.palette.mode === 'dark' ? alpha('#fff', 0.06) : theme.palette.grey[200],
      borderColor: theme.palette.divider,
      boxShadow: 'none'
    }
  };

  const colorVariants: ButtonVariants = SEMANTIC_COLORS.flatMap((color): ButtonVariants => {
    const c = theme.palette[color];
    return [
      {
        props: { variant: 'dashed', color },
        style: {
          color: c.main,
          border: `1px dashed ${c.main}`,
          backgroundColor: alpha(c.main, 0.06),
          '&:hover': { color: c.dark, borderColor: c.dark, backgroundColor: alpha(c.main, 0.12) },
          '&.Mui-focusVisible': { outline: `2px solid ${c.dark}`, outlineOffset: 2 },
          ...disabled
        }
      },
      {
        props: { variant: 'shadow', color },
        style: {
          color: c.contrastText,
          backgroundColor: c.main,
          boxShadow: theme.customShadows[`${color}Button`],
          '&:hover': { boxShadow: 'none', backgroundColor: c.dark },
          '&.Mui-focusVisible': { outline: `2px solid ${c.dark}`, outlineOffset: 2 },
          ...disabled
        }
      },
      {
        props: { variant: 'outlined', color },
        style: { '&:hover': { backgroundColor: alpha(c.main, 0.08), borderColor: c.dark } }
      }
    ];
  });

  const paddingVariants: ButtonVariants = PADDED_VARIANTS.flatMap((variant) =>
    SIZES.map((size) => ({ props: { variant, size }, style: { padding: PADDING[variant][size] } }))
  );

  return {
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: {
        root: { fontWeight: 400, borderRadius: 4 },
        startIcon: { marginRight: 6 }
      },
      variants: [
        ...colorVariants,
        ...paddingVariants,
        // spec §9: small-button minimum width 56
        { props: { size: 'small' }, style: { minWidth: 56 } },
        { props: { variant: 'text' }, style: { '&:hover': { boxShadow: 'none' } } }
      ]
    }
  };
}
