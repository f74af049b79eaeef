// MuiChip: custom variants light and combined for every semantic colour; large size 40 px.
import { type Theme, alpha } from '@mui/material/styles';
import { SEMANTIC_COLORS } from '../colors';

type ChipVariants = NonNullable<NonNullable<NonNullable<Theme['components']>['MuiChip']>['variants']>;

export default function Chip(theme: Theme): NonNullable<Theme['components']> {
  const dark = theme.palette.mode === 'dark';
  const colorVariants: ChipVariants = SEMANTIC_COLORS.flatMap((color): ChipVariants => {
    const c = theme.palette[color];
    const soft = dark ? alpha(c.main, 0.16) : c.lighter;
    const softHover = dark ? alpha(c.main, 0.28) : c.light;
    return [
      {
        props: { variant: 'light', color },
        style: {
          color: c.main,
          backgroundColor: soft,
          '&.MuiChip-clickable:hover': { backgroundColor: softHover, color: dark ? c.light : c.contrastText }
        }
      },
      {
        props: { variant: 'combined', color },
        style: {
          color: c.main,
          backgroundColor: soft,
          border: `1px solid ${dark ? alpha(c.main, 0.5) : c.light}`,
          '&.MuiChip-clickable:hover': { backgroundColor: softHover }
        }
      }
    ];
  });

  const defaultGrey = {
    color: theme.palette.text.primary,
    backgroundColor: dark ? alpha('#fff', 0.08) : theme.palette.grey[100]
  };

  return {
    MuiChip: {
      styleOverrides: {
        root: { borderRadius: 4, '&:active': { boxShadow: 'none' } },
        label: { paddingLeft: 12, paddingRight: 12 }
      },
      variants: [
        { props: { variant: 'light', color: 'default' }, style: defaultGrey },
        {
          props: { variant: 'combined', color: 'default' },
          style: { ...defaultGrey, border: `1px solid ${theme.palette.divider}` }
        },
        ...colorVariants,
        // spec §9: large chip height 40
        {
          props: { size: 'large' },
          style: { height: 40, fontSize: '1rem', '& .MuiChip-label': { paddingLeft: 14, paddingRight: 14 } }
        },
        { props: { size: 'small' }, style: { height: 24, '& .MuiChip-label': { paddingLeft: 8, paddingRight: 8 } } }
      ]
    }
  };
}
