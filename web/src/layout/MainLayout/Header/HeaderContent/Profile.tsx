// Profile menu: avatar (first letter on a colour picked from the name), name, role name,
// light/dark toggle, Change Password and Logout.
import { type ReactElement, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import CardContent from '@mui/material/CardContent';
import ClickAwayListener from '@mui/material/ClickAwayListener';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { KeyOutlined, LogoutOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';

import MainCard from '../../../../components/MainCard';
import Transitions from '../../../../components/Transitions';
import { useThemeMode } from '../../../../themes';
import { logout } from '../../../../api/auth';
import { avatarColor, avatarLetter } from '../../../../utils/avatar';
import type { SessionUser } from '../../../../utils/storage';

// The switch's input, named for tests (a data-* key is no known prop in an inline object).
const THEME_TOGGLE_INPUT = { 'aria-label': 'Dark mode', 'data-testid': 'theme-toggle' };

function UserAvatar({ name, size = 32 }: { name: string; size?: number }): ReactElement {
  const bg = avatarColor(name);
  return (
    <Avatar
      alt={name || ''}
      data-testid="user-avatar"
      data-color={bg}
      sx={{ width: size, height: size, bgcolor: bg, color: '#fff', fontSize: size * 0.45, fontWeight: 600 }}
    >
      {avatarLetter(name)}
    </Avatar>
  );
}

interface ProfileProps {
  user: SessionUser | null;
  /** Below lg: the avatar alone, without the name. */
  compact: boolean;
}

export default function Profile({ user, compact }: ProfileProps): ReactElement {
  const theme = useTheme();
  const navigate = useNavigate();
  const { mode, toggleMode } = useThemeMode();
  // The button the menu hangs from, kept in state (a callback ref) since the menu reads it to render.
  const [anchor, setAnchor] = useState<HTMLButtonElement | null>(null);
  const [open, setOpen] = useState(false);
  const name = user?.name ?? '';
  const roleName = user?.role_name ?? '';

  const close = (event: MouseEvent | TouchEvent): void => {
    if (event.target instanceof Node && anchor?.contains(event.target)) return;
    setOpen(false);
  };

  return (
    <Box sx={{ flexShrink: 0 }}>
      <ButtonBase
        ref={setAnchor}
        aria-label="Open profile"
        aria-haspopup="true"
        aria-expanded={open}
        data-testid="header-profile"
        onClick={() => setOpen((o) => !o)}
        sx={{ p: 0.25, pr: 1, borderRadius: 1, '&:hover': { bgcolor: 'action.hover' } }}
      >
        <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center', p: 0.5 }}>
          <UserAvatar name={name} />
          {!compact && (
            <Typography
              variant="subtitle1"
              sx={{ maxWidth: 160, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
            >
              {name}
            </Typography>
          )}
        </Stack>
      </ButtonBase>
      <Popper
        placement="bottom-end"
        open={open}
        anchorEl={anchor}
        transition
        popperOptions={{ modifiers: [{ name: 'offset', options: { offset: [0, 9] } }] }}
        sx={{ zIndex: 1300 }}
      >
        {({ TransitionProps }) => (
          <Transitions type="grow" position="top-right" {...TransitionProps}>
            <Paper sx={{ boxShadow: theme.customShadows.z1, width: 290, minWidth: 240 }}>
              <ClickAwayListener onClickAway={close}>
                <MainCard content={false} data-testid="profile-menu" sx={{ border: 'none' }}>
                  <CardContent sx={{ px: 2.5, pt: 3 }}>
                    <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center' }}>
                      <UserAvatar name={name} size={40} />
                      <Stack sx={{ minWidth: 0 }}>
                        <Typography variant="h6" sx={{ fontWeight: 600 }} data-testid="profile-name" noWrap>
                          {name}
                        </Typography>
                        <Typography variant="body2" color="text.secondary" data-testid="profile-role" noWrap>
                          {roleName}
                        </Typography>
                      </Stack>
                    </Stack>
                  </CardContent>
                  <Divider />
                  <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', px: 2.5, py: 1 }}>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      {mode === 'dark' ? <MoonOutlined /> : <SunOutlined />}
                      <Typography variant="body1">{mode === 'dark' ? 'Dark mode' : 'Light mode'}</Typography>
                    </Stack>
                    <Switch checked={mode === 'dark'} onChange={toggleMode} slotProps={{ input: THEME_TOGGLE_INPUT }} />
                  </Stack>
                  <Divider />
                  <List component="nav" sx={{ p: 0, '& .MuiListItemIcon-root': { minWidth: 32 } }}>
                    <ListItemButton
                      data-testid="profile-change-password"
                      onClick={() => {
                        setOpen(false);
                        navigate('/changepassword');
                      }}
                    >
                      <ListItemIcon>
                        <KeyOutlined />
                      </ListItemIcon>
                      <ListItemText primary="Change Password" />
                    </ListItemButton>
                    <ListItemButton data-testid="profile-logout" onClick={() => void logout()}>
                      <ListItemIcon>
                        <LogoutOutlined />
                      </ListItemIcon>
                      <ListItemText primary="Logout" />
                    </ListItemButton>
                  </List>
                </MainCard>
              </ClickAwayListener>
            </Paper>
          </Transitions>
        )}
      </Popper>
    </Box>
  );
}
