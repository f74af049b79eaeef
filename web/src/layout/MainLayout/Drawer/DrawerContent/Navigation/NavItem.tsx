import { type ReactElement, useEffect } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import Avatar from '@mui/material/Avatar';
import Chip from '@mui/material/Chip';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { alpha, useTheme } from '@mui/material/styles';

import { handlerActiveItem, handlerDrawerOpen, useGetMenuMaster } from '../../../../../store/menu';
import { type MenuItem, isItemSelected } from '../../../../../menu-items';

interface NavItemProps {
  item: MenuItem;
  level?: number;
  open?: boolean;
  closeOnNavigate?: boolean;
}

export default function NavItem({ item, level = 1, open = true, closeOnNavigate = false }: NavItemProps): ReactElement {
  const theme = useTheme();
  const { pathname } = useLocation();
  const { menuMaster } = useGetMenuMaster();
  const openedItem = menuMaster.openedItem;

  const isSelected = isItemSelected(item, pathname, openedItem);

  // The remembered opened item follows the path when it equals the item's url.
  useEffect(() => {
    if (item.url && pathname === item.url) handlerActiveItem(item.id);
  }, [pathname, item.url, item.id]);

  const target = item.target ? '_blank' : '_self';
  const linkProps = item.external
    ? { component: 'a', href: item.url, target, ...(item.target ? { rel: 'noopener noreferrer' } : {}) }
    : { component: RouterLink, to: item.url, target, ...(item.target ? { rel: 'noopener noreferrer' } : {}) };

  const Icon = item.icon;
  const iconSelectedColor = theme.palette.primary.main;
  const textColor = item.highlight ? theme.palette.error.main : theme.palette.text.primary;

  const onClick = () => {
    handlerActiveItem(item.id);
    if (closeOnNavigate) handlerDrawerOpen(false);
  };

  const button = (
    <ListItemButton
      {...linkProps}
      disabled={item.disabled}
      selected={isSelected}
      onClick={onClick}
      aria-label={open ? undefined : item.title}
      aria-current={isSelected ? 'page' : undefined}
      data-testid={`nav-item-${item.id}`}
      sx={{
        zIndex: 1201,
        pl: open ? `${level * 28}px` : 1.5,
        py: !open && level === 1 ? 1.25 : 1,
        color: textColor,
        ...(open && {
          '&:hover': { bgcolor: alpha(theme.palette.primary.main, theme.palette.mode === 'dark' ? 0.12 : 0.06) },
          '&.Mui-selected': {
            bgcolor: alpha(theme.palette.primary.main, theme.palette.mode === 'dark' ? 0.18 : 0.1),
            borderRight: `2px solid ${theme.palette.primary.main}`,
            color: item.highlight ? theme.palette.error.main : iconSelectedColor,
            '&:hover': {
              color: iconSelectedColor,
              bgcolor: alpha(theme.palette.primary.main, theme.palette.mode === 'dark' ? 0.24 : 0.14)
            }
          }
        }),
        ...(!open && {
          justifyContent: 'center',
          '&:hover': { bgcolor: 'transparent' },
          '&.Mui-selected': { '&:hover': { bgcolor: 'transparent' }, bgcolor: 'transparent' }
        })
      }}
    >
      {Icon && (
        <ListItemIcon
          sx={{
            minWidth: 28,
            color: isSelected ? iconSelectedColor : item.highlight ? theme.palette.error.main : textColor,
            ...(!open && {
              borderRadius: 1.5,
              width: 36,
              height: 36,
              alignItems: 'center',
              justifyContent: 'center',
              '&:hover': { bgcolor: alpha(theme.palette.primary.main, 0.1) }
            }),
            ...(!open &&
              isSelected && {
                bgcolor: alpha(theme.palette.primary.main, 0.16),
                '&:hover': { bgcolor: alpha(theme.palette.primary.main, 0.22) }
              })
          }}
        >
          <Icon style={{ fontSize: open ? '1rem' : '1.25rem' }} />
        </ListItemIcon>
      )}
      {(open || !Icon) && (
        <ListItemText
          primary={
            <Typography
              variant="h6"
              sx={{ color: isSelected ? (item.highlight ? 'error.main' : iconSelectedColor) : textColor }}
            >
              {item.title}
            </Typography>
          }
        />
      )}
      {open && item.chip && (
        <Chip
          color={item.chip.color}
          variant={item.chip.variant}
          size={item.chip.size}
          label={item.chip.label}
          avatar={item.chip.avatar ? <Avatar>{item.chip.avatar}</Avatar> : undefined}
        />
      )}
    </ListItemButton>
  );

  return open ? (
    button
  ) : (
    <Tooltip title={item.title} placement="right">
      {button}
    </Tooltip>
  );
}
