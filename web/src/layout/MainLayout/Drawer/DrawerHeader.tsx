import type { ReactElement } from 'react';
import Box from '@mui/material/Box';
import Logo from '../../../components/logo';
import { LOGO_HEIGHT } from '../../../config';

/** Drawer top: the logo (links to '/'), narrowed when the drawer is collapsed. */
export default function DrawerHeader({ open }: { open: boolean }): ReactElement {
  return (
    <Box
      sx={{
        minHeight: LOGO_HEIGHT,
        height: LOGO_HEIGHT,
        display: 'flex',
        alignItems: 'center',
        justifyContent: open ? 'flex-start' : 'center',
        px: open ? 3 : 0,
        flexShrink: 0
      }}
    >
      <Logo collapsed={!open} />
    </Box>
  );
}
