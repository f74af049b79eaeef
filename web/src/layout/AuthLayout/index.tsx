// Public pages (sign in, register): centred card on a quiet background.
import type { ReactElement } from 'react';
import { Outlet } from 'react-router-dom';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha, useTheme } from '@mui/material/styles';
import Logo from '../../components/logo';
import { APP_NAME } from '../../config';

function Background(): ReactElement {
  const theme = useTheme();
  const c = theme.palette.primary.main;
  return (
    <Box aria-hidden="true" sx={{ position: 'fixed', inset: 0, zIndex: 0, overflow: 'hidden', pointerEvents: 'none' }}>
      <svg width="100%" height="100%" viewBox="0 0 1440 900" preserveAspectRatio="xMidYMid slice">
        <path d="M0 700 C 320 560, 560 860, 900 720 S 1300 520, 1440 600 L 1440 900 L 0 900 Z" fill={alpha(c, 0.08)} />
        <path d="M0 780 C 380 660, 700 900, 1040 780 S 1340 680, 1440 720 L 1440 900 L 0 900 Z" fill={alpha(c, 0.06)} />
        <circle cx="1260" cy="140" r="180" fill={alpha(c, 0.05)} />
      </svg>
    </Box>
  );
}

export default function AuthLayout(): ReactElement {
  return (
    <Box sx={{ minHeight: '100vh', position: 'relative', bgcolor: 'background.default' }}>
      <Background />
      <Stack sx={{ position: 'relative', zIndex: 1, minHeight: '100vh', justifyContent: 'space-between' }}>
        <Box sx={{ px: 3, pt: 2 }}>
          <Logo to="/login" />
        </Box>
        <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', px: 2, py: 3 }}>
          <Box
            sx={{
              width: '100%',
              maxWidth: 475,
              p: { xs: 2.5, sm: 4 },
              bgcolor: 'background.paper',
              border: '1px solid',
              borderColor: 'divider',
              borderRadius: 2,
              boxShadow: (theme) => theme.customShadows.z1
            }}
          >
            <Outlet />
          </Box>
        </Box>
        <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'center', pb: 2 }}>
          © {new Date().getFullYear()} {APP_NAME} · Call tracking and routing
        </Typography>
      </Stack>
    </Box>
  );
}
