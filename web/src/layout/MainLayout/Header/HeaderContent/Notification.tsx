// Notification bell: unread badge and a dropdown that pages 10 at a time as it is scrolled.
import { type ReactElement, useState } from 'react';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import ClickAwayListener from '@mui/material/ClickAwayListener';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { BellOutlined } from '@ant-design/icons';

import MainCard from '../../../../components/MainCard';
import Transitions from '../../../../components/Transitions';
import useNotifications from '../../../../hooks/useNotifications';
import { call } from '../../../../api/client';
import { notificationsMarkAllRead } from '../../../../client';
import { selectUnreadCount, setUnreadNotificationCount, useLive } from '../../../../store/live';
import { formatDateTime } from '../../../../utils/time';
import { NOTIFICATION_MAX_HEIGHT } from '../../../../config';

interface NotificationProps {
  /** The signed-in user's zone, for the notifications' times. */
  timezone?: string | null | undefined;
}

export default function Notification({ timezone }: NotificationProps): ReactElement {
  const theme = useTheme();
  const downMD = useMediaQuery(theme.breakpoints.down('md'));
  // The button the menu hangs from, kept in state (a callback ref) since the menu reads it to render.
  const [anchor, setAnchor] = useState<HTMLButtonElement | null>(null);
  const [open, setOpen] = useState(false);
  const unread = useLive(selectUnreadCount);
  const { items, loading, open: loadFirstPage, onScroll } = useNotifications();

  const toggle = () => {
    const next = !open;
    setOpen(next);
    if (!next) return;
    // The list still shows which were new (shaded); opening it reads them, so the badge clears.
    void loadFirstPage().then(() => {
      if (unread === 0) return;
      call(notificationsMarkAllRead())
        .then(() => setUnreadNotificationCount(0))
        .catch((err: unknown) => console.error('Marking notifications read failed', err));
    });
  };

  const close = (event: MouseEvent | TouchEvent): void => {
    if (event.target instanceof Node && anchor?.contains(event.target)) return;
    setOpen(false);
  };

  return (
    <Box sx={{ flexShrink: 0 }}>
      <IconButton
        ref={setAnchor}
        aria-label="Notifications"
        aria-haspopup="true"
        aria-expanded={open}
        onClick={toggle}
        data-testid="header-notifications"
        sx={{ color: 'text.primary' }}
      >
        <Badge badgeContent={unread} color="primary" max={99} data-testid="notification-badge">
          <BellOutlined />
        </Badge>
      </IconButton>
      <Popper
        placement={downMD ? 'bottom' : 'bottom-end'}
        open={open}
        anchorEl={anchor}
        transition
        popperOptions={{ modifiers: [{ name: 'offset', options: { offset: [downMD ? -5 : 0, 9] } }] }}
        sx={{ zIndex: 1300 }}
      >
        {({ TransitionProps }) => (
          <Transitions type="grow" position="top-right" {...TransitionProps}>
            <Paper
              sx={{ boxShadow: theme.customShadows.z1, width: '100%', minWidth: 285, maxWidth: { xs: 300, md: 420 } }}
            >
              <ClickAwayListener onClickAway={close}>
                <MainCard
                  title="Notification"
                  content={false}
                  data-testid="notification-dropdown"
                  sx={{ border: 'none' }}
                >
                  <Box
                    data-testid="notification-list"
                    onScroll={onScroll}
                    sx={{ maxHeight: NOTIFICATION_MAX_HEIGHT, overflowY: 'auto' }}
                  >
                    <List disablePadding>
                      {items.map((n) => (
                        <ListItem
                          key={n.id}
                          divider
                          sx={{ py: 1, px: 2.5, ...(n.read_at ? {} : { bgcolor: 'action.hover' }) }}
                        >
                          <ListItemText
                            primary={<Typography variant="body1">{n.text}</Typography>}
                            secondary={
                              <Typography variant="caption" color="text.secondary">
                                {formatDateTime(n.created_at, timezone, { zone: true })}
                              </Typography>
                            }
                          />
                        </ListItem>
                      ))}
                    </List>
                    {loading && (
                      <Typography variant="body1" color="text.secondary" sx={{ p: 2, textAlign: 'center' }}>
                        Loading...
                      </Typography>
                    )}
                    {!loading && items.length === 0 && (
                      <Typography variant="body1" color="text.secondary" sx={{ p: 2, textAlign: 'center' }}>
                        No notifications found!
                      </Typography>
                    )}
                  </Box>
                </MainCard>
              </ClickAwayListener>
            </Paper>
          </Transitions>
        )}
      </Popper>
    </Box>
  );
}
