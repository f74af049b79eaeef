// Header: drawer toggle (not for buyers) and the header items; below lg they move into a more-menu.
import type { ReactElement } from 'react';
import AppBar from '@mui/material/AppBar';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { alpha, useTheme } from '@mui/material/styles';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';

import AppBarStyled from './AppBarStyled';
import HeaderContent from './HeaderContent';
import Logo from '../../../components/logo';
import { handlerDrawerOpen, useGetMenuMaster } from '../../../store/menu';
import { isBuyer } from '../../../utils/roles';
import type { SessionUser } from '../../../utils/storage';

interface HeaderProps {
  user: SessionUser | null;
  /** Whether the sidebar is shown (not for buyers): the bar then sits beside it at lg and above. */
  sidebar: boolean;
}

export default function Header({ user, sidebar }: HeaderProps): ReactElement {
  const theme = useTheme();
  const downLG = useMediaQuery(theme.breakpoints.down('lg'), { noSsr: true });
  const { menuMaster } = useGetMenuMaster();
  const drawerOpen = menuMaster.isDashboardDrawerOpened;
  const buyer = isBuyer(user);
  const dark = theme.palette.mode === 'dark';

  const toolbar = (
    <Toolbar sx={{ gap: 1 }}>
      {!buyer && (
        <IconButton
          aria-label={drawerOpen ? 'Close drawer' : 'Open drawer'}
          data-testid="drawer-toggle"
          onClick={() => handlerDrawerOpen(!drawerOpen)}
          edge="start"
          sx={{
            color: 'text.primary',
            bgcolor: drawerOpen ? 'transparent' : dark ? alpha('#fff', 0.06) : 'grey.100',
            '&:hover': { bgcolor: dark ? alpha('#fff', 0.1) : 'grey.200' },
            ml: { xs: 0, lg: -2 }
          }}
        >
          {drawerOpen ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        </IconButton>
      )}
      {(buyer || downLG) && <Logo sx={{ mr: 1, height: 44 }} />}
      <HeaderContent user={user} compact={downLG} />
    </Toolbar>
  );

  const appBarSx = {
    bgcolor: 'background.paper',
    color: 'text.primary',
    borderBottom: '1px solid',
    borderBottomColor: 'divider'
  };

  if (!downLG && sidebar) {
    return (
      <AppBarStyled open={drawerOpen} position="fixed" color="inherit" elevation={0} sx={appBarSx} data-testid="header">
        {toolbar}
      </AppBarStyled>
    );
  }
  return (
    <AppBar position="fixed" color="inherit" elevation={0} sx={appBarSx} data-testid="header">
      {toolbar}
    </AppBar>
  );
}
