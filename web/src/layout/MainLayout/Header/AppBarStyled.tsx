import { styled } from '@mui/material/styles';
import AppBar, { type AppBarProps } from '@mui/material/AppBar';
import { DRAWER_WIDTH, MINI_DRAWER_WIDTH } from '../../../config';

/** App bar at lg and above, beside the permanent drawer (open or collapsed). */
interface AppBarStyledProps extends AppBarProps {
  /** The drawer beside it is open (full width) rather than collapsed. */
  open: boolean;
}

const AppBarStyled = styled(AppBar, { shouldForwardProp: (prop) => prop !== 'open' })<AppBarStyledProps>(
  ({ theme, open }) => ({
    zIndex: theme.zIndex.drawer + 1,
    transition: theme.transitions.create(['width', 'margin'], {
      easing: theme.transitions.easing.sharp,
      duration: theme.transitions.duration.leavingScreen
    }),
    ...(open
      ? { marginLeft: DRAWER_WIDTH, width: `calc(100% - ${DRAWER_WIDTH}px)` }
      : { width: `calc(100% - ${MINI_DRAWER_WIDTH}px)` })
  })
);

export default AppBarStyled;
