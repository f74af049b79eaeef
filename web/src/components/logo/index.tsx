// Logo linking to '/': full (mark + name) or, when the drawer is collapsed, the mark alone (35 px wide).
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import ButtonBase from '@mui/material/ButtonBase';
import type { SxProps, Theme } from '@mui/material/styles';

import LogoMark from './LogoMark';
import { APP_NAME, LOGO_COLLAPSED_WIDTH, LOGO_HEIGHT, themeDefaults } from '../../config';

interface LogoProps {
  collapsed?: boolean;
  to?: string;
  sx?: SxProps<Theme>;
}

export default function Logo({ collapsed = false, to = themeDefaults.defaultPath, sx }: LogoProps) {
  return (
    <ButtonBase
      component={RouterLink}
      to={to}
      aria-label={`${APP_NAME} home`}
      data-testid="logo"
      sx={[
        {
          height: LOGO_HEIGHT,
          width: collapsed ? LOGO_COLLAPSED_WIDTH : 'auto',
          justifyContent: 'flex-start',
          borderRadius: 1
        },
        ...(Array.isArray(sx) ? sx : [sx])
      ]}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, overflow: 'hidden' }}>
        <LogoMark size={LOGO_COLLAPSED_WIDTH} />
        {!collapsed && (
          <Typography
            component="span"
            sx={{
              fontSize: '1.25rem',
              fontWeight: 700,
              letterSpacing: 0.2,
              color: 'text.primary',
              whiteSpace: 'nowrap'
            }}
          >
            {APP_NAME}
          </Typography>
        )}
      </Box>
    </ButtonBase>
  );
}
