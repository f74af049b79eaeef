import type { ReactElement } from 'react';
import List from '@mui/material/List';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import NavItem from './NavItem';
import { type MenuGroup, childKind } from '../../../../../menu-items';

interface NavGroupProps {
  group: MenuGroup;
  open: boolean;
  closeOnNavigate?: boolean;
}

export default function NavGroup({ group, open, closeOnNavigate }: NavGroupProps): ReactElement {
  const children = (group.children ?? []).map((child) => {
    switch (childKind(child)) {
      case 'item':
        return <NavItem key={child.id} item={child} level={1} open={open} closeOnNavigate={closeOnNavigate} />;
      case 'collapse':
        // Nested collapse entries are not rendered; only a placeholder shows (spec §2, §8).
        return (
          <Typography key={child.id} variant="caption" color="secondary" sx={{ p: 2.5, display: 'block' }}>
            collapse
          </Typography>
        );
      default:
        return (
          <Typography key={child.id} variant="h6" color="error" align="center">
            Group Collapse or Items
          </Typography>
        );
    }
  });

  return (
    <List
      data-testid={`nav-group-${group.id}`}
      aria-label={group.title}
      subheader={
        group.title && open ? (
          <Box sx={{ pl: 3, mb: 1.5 }}>
            <Typography variant="subtitle2" color="text.secondary" component="div" data-testid="nav-group-title">
              {group.title}
            </Typography>
          </Box>
        ) : null
      }
      sx={{ mb: open ? 1.5 : 0, py: 0, zIndex: 0 }}
    >
      {children}
    </List>
  );
}
