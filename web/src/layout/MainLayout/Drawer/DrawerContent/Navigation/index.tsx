import type { ReactElement } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import NavGroup from './NavGroup';
import type { Menu } from '../../../../../menu-items';

interface NavigationProps {
  menu: Menu | null | undefined;
  open: boolean;
  closeOnNavigate?: boolean;
}

export default function Navigation({ menu, open, closeOnNavigate }: NavigationProps): ReactElement {
  const groups = (menu?.items ?? []).map((group) => {
    if (group.type === 'group')
      return <NavGroup key={group.id} group={group} open={open} closeOnNavigate={closeOnNavigate} />;
    return (
      <Typography key={group.id} variant="h6" color="error" align="center">
        Fix - Navigation Group
      </Typography>
    );
  });
  return <Box sx={{ pt: open ? 1 : 0, '& > ul:first-of-type': { mt: 0 } }}>{groups}</Box>;
}
