// Sidebar: a temporary drawer below lg, a permanent collapsible one at lg and above.
import type { ReactElement } from 'react';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';

import DrawerHeader from './DrawerHeader';
import DrawerContent from './DrawerContent';
import MiniDrawerStyled from './MiniDrawerStyled';
import { handlerDrawerOpen, useGetMenuMaster } from '../../../store/menu';
import { DRAWER_WIDTH } from '../../../config';
import type { Menu } from '../../../menu-items';

export default function MainDrawer({ menu }: { menu: Menu }): ReactElement {
  const theme = useTheme();
  const downLG = useMediaQuery(theme.breakpoints.down('lg'), { noSsr: true });
  const { menuMaster } = useGetMenuMaster();
  const open = menuMaster.isDashboardDrawerOpened;

  return (
    <Box component="nav" sx={{ flexShrink: { lg: 0 }, zIndex: 1200 }} aria-label="Main navigation">
      {!downLG ? (
        <MiniDrawerStyled
          variant="permanent"
          open={open}
          data-testid="drawer"
          data-variant="permanent"
          data-open={String(open)}
        >
          <DrawerHeader open={open} />
          <DrawerContent menu={menu} open={open} />
        </MiniDrawerStyled>
      ) : (
        <Drawer
          variant="temporary"
          open={open}
          onClose={() => handlerDrawerOpen(false)}
          ModalProps={{ keepMounted: true }}
          data-testid="drawer"
          data-variant="temporary"
          data-open={String(open)}
          sx={{
            display: { xs: 'block', lg: 'none' },
            '& .MuiDrawer-paper': {
              boxSizing: 'border-box',
              width: DRAWER_WIDTH,
              backgroundImage: 'none',
              boxShadow: 'inherit'
            }
          }}
        >
          <DrawerHeader open />
          <DrawerContent menu={menu} open closeOnNavigate />
        </Drawer>
      )}
    </Box>
  );
}
