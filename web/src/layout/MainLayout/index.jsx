// Signed-in shell: header, sidebar drawer (not for buyers) and the routed screen.
import { useEffect, useMemo } from 'react';
import { Outlet } from 'react-router-dom';
import Box from '@mui/material/Box';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';

import Header from './Header';
import MainDrawer from './Drawer';
import { chooseMenu, showSidebar } from '../../menu-items';
import { handlerDrawerOpen } from '../../api/menu';
import { fetchUnreadCount } from '../../api/header';
import { setUnreadNotificationCount } from '../../store/live';
import { LIVE_WS_ENABLED, connectLive } from '../../store/liveSocket';
import { getStoredDrawerOpen, getStoredUser, getToken } from '../../utils/storage';
import { MAIN_TOP_MARGIN } from '../../config';

export default function MainLayout() {
  const theme = useTheme();
  const downXL = useMediaQuery(theme.breakpoints.down('xl'), { noSsr: true });

  // The stored user, and so the menu, is read once when the signed-in shell starts.
  const user = useMemo(() => getStoredUser(), []);
  const menu = useMemo(() => chooseMenu(user), [user]);
  const sidebar = showSidebar(user);

  // The drawer is closed below xl; at xl and above it takes the saved state.
  useEffect(() => {
    handlerDrawerOpen(downXL ? false : getStoredDrawerOpen(), { persist: false });
  }, [downXL]);

  useEffect(() => {
    let cancelled = false;
    fetchUnreadCount()
      .then((n) => !cancelled && setUnreadNotificationCount(n))
      .catch((err) => console.error('Unread notification count failed', err));
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    if (!LIVE_WS_ENABLED) return undefined;
    return connectLive({ token: getToken(), user });
  }, [user]);

  return (
    <Box sx={{ display: 'flex', width: '100%', minHeight: '100vh' }}>
      <Header user={user} sidebar={sidebar} />
      {sidebar && <MainDrawer menu={menu} />}
      <Box
        component="main"
        data-testid="main-content"
        sx={{ flexGrow: 1, minWidth: 0, mt: `${MAIN_TOP_MARGIN}px`, p: { xs: 2, sm: 3 } }}
      >
        <Outlet />
      </Box>
    </Box>
  );
}
