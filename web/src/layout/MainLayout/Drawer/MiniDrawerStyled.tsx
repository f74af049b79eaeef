import { type CSSObject, type Theme, styled } from '@mui/material/styles';
import Drawer, { type DrawerProps } from '@mui/material/Drawer';
import { DRAWER_WIDTH, MINI_DRAWER_WIDTH } from '../../../config';

const openedMixin = (theme: Theme): CSSObject => ({
  width: DRAWER_WIDTH,
  borderRight: '1px solid',
  borderRightColor: theme.palette.divider,
  transition: theme.transitions.create('width', {
    easing: theme.transitions.easing.sharp,
    duration: theme.transitions.duration.enteringScreen
  }),
  overflowX: 'hidden',
  boxShadow: theme.palette.mode === 'dark' ? theme.customShadows.z1 : 'none'
});

const closedMixin = (theme: Theme): CSSObject => ({
  width: MINI_DRAWER_WIDTH,
  borderRight: '1px solid',
  borderRightColor: theme.palette.divider,
  transition: theme.transitions.create('width', {
    easing: theme.transitions.easing.sharp,
    duration: theme.transitions.duration.leavingScreen
  }),
  overflowX: 'hidden',
  boxShadow: 'none'
});

/** Permanent drawer used at lg and above: full width when open, icons only when collapsed. */
const MiniDrawerStyled = styled(Drawer, { shouldForwardProp: (prop) => prop !== 'open' })<
  DrawerProps & { open: boolean }
>(({ theme, open }) => ({
  width: open ? DRAWER_WIDTH : MINI_DRAWER_WIDTH,
  flexShrink: 0,
  whiteSpace: 'nowrap',
  boxSizing: 'border-box',
  ...(open
    ? { ...openedMixin(theme), '& .MuiDrawer-paper': openedMixin(theme) }
    : { ...closedMixin(theme), '& .MuiDrawer-paper': closedMixin(theme) })
}));

export default MiniDrawerStyled;
