// Signed-in shell: header, sidebar drawer (not for buyers) and the routed screen.
import { type ReactElement, useEffect, useMemo, useState } from 'react';
import { Outlet } from 'react-router-dom';
import Box from '@mui/material/Box';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';

import Header from './Header';
import MainDrawer from './Drawer';
import { chooseMenu, showSidebar } from '../../menu-items';
import { handlerDrawerOpen } from '../../store/menu';
import { call } from '../../api/client';
import { configConfig, notificationsUnread } from '../../client';
import LinearProgress from '@mui/material/LinearProgress';
import { setMoneyConfig } from '../../store/money';
import { setUnreadNotificationCount } from '../../store/live';
import { LIVE_WS_ENABLED, connectLive } from '../../store/liveSocket';
import { prefetchScreens } from '../../routes/screens';
import useStoredUser from '../../hooks/useStoredUser';
import { getStoredDrawerOpen, getStoredMoney, getStoredUser, getToken, setStoredMoney } from '../../utils/storage';
import { MAIN_TOP_MARGIN } from '../../config';

export default function MainLayout(): ReactElement {
  const theme = useTheme();
  const downXL = useMediaQuery(theme.breakpoints.down('xl'), { noSsr: true });

  // The stored user, and so the menu, is read once when the signed-in shell starts.
  const user = useMemo(() => getStoredUser(), []);
  const menu = useMemo(() => chooseMenu(user), [user]);
  // The header follows the stored user as it changes (name, timezone), without a reload.
  const shown = useStoredUser() ?? user;
  const sidebar = showSidebar(user);

  // The drawer is closed below xl; at xl and above it takes the saved state.
  useEffect(() => {
    handlerDrawerOpen(downXL ? false : getStoredDrawerOpen(), { persist: false });
  }, [downXL]);

  // Money is shown in the API's currency: the first time, the header and sidebar show at once but
  // the screen waits (an inline bar) until GET /config has answered (if it fails, amounts show
  // without a currency and no balance is flagged low); later page loads start from the answer kept
  // for this user and read it again meanwhile.
  const [moneyReady, setMoneyReady] = useState(() => {
    const kept = getStoredMoney(user?.user_id);
    if (kept) setMoneyConfig(kept);
    return Boolean(kept);
  });
  useEffect(() => {
    call(configConfig())
      .then((money) => {
        setMoneyConfig(money);
        setStoredMoney(user?.user_id, money);
      })
      .catch((err: unknown) => console.error('Money settings failed', err))
      .finally(() => setMoneyReady(true));
  }, [user]);

  useEffect(() => {
    let cancelled = false;
    call(notificationsUnread())
      .then((data) => {
        if (!cancelled) setUnreadNotificationCount(Number(data?.unread_notification_count ?? 0));
      })
      .catch((err: unknown) => console.error('Unread notification count failed', err));
    return () => {
      cancelled = true;
    };
  }, []);

  // Every other screen's code, fetched while the browser is idle: moving between screens then
  // waits for data only, which each screen loads inside its own frame.
  useEffect(() => prefetchScreens(), []);

  useEffect(() => {
    if (!LIVE_WS_ENABLED) return undefined;
    return connectLive({ token: getToken(), user });
  }, [user]);

  return (
    <Box sx={{ display: 'flex', width: '100%', minHeight: '100vh' }}>
      <Header user={shown} sidebar={sidebar} />
      {sidebar && <MainDrawer menu={menu} />}
      <Box
        component="main"
        data-testid="main-content"
        sx={{ flexGrow: 1, minWidth: 0, mt: `${MAIN_TOP_MARGIN}px`, p: { xs: 2, sm: 3 } }}
      >
        {moneyReady ? <Outlet /> : <LinearProgress aria-label="Loading" data-testid="shell-loading" />}
      </Box>
    </Box>
  );
}
