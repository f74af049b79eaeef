// Logout icon and lock icon. The spec leaves their behaviour open: the logout icon signs out
// (as the profile menu's Logout does) and the lock icon opens Change Password.
import type { ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { LockOutlined, LogoutOutlined } from '@ant-design/icons';
import { logout } from '../../../../api/auth';

export default function SessionButtons(): ReactElement {
  const navigate = useNavigate();
  return (
    <>
      <Tooltip title="Change password">
        <IconButton
          aria-label="Lock"
          data-testid="header-lock"
          onClick={() => void navigate('/changepassword')}
          sx={{ color: 'text.primary' }}
        >
          <LockOutlined />
        </IconButton>
      </Tooltip>
      <Tooltip title="Logout">
        <IconButton
          aria-label="Logout"
          data-testid="header-logout"
          onClick={() => void logout()}
          sx={{ color: 'text.primary' }}
        >
          <LogoutOutlined />
        </IconButton>
      </Tooltip>
    </>
  );
}
