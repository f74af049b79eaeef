// Full-screen overlay with five animated bars, shown while a lazy screen loads.
import Box from '@mui/material/Box';
import { alpha, keyframes } from '@mui/material/styles';

const stretch = keyframes`
  0%, 40%, 100% { transform: scaleY(0.4); opacity: 0.55; }
  20% { transform: scaleY(1); opacity: 1; }
`;

export default function Loader() {
  return (
    <Box
      role="progressbar"
      aria-label="Loading"
      data-testid="page-loader"
      sx={{
        position: 'fixed',
        inset: 0,
        zIndex: 2001,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: (theme) => alpha(theme.palette.background.default, 0.72),
        backdropFilter: 'blur(2px)'
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: '6px', height: 48 }}>
        {[0, 1, 2, 3, 4].map((i) => (
          <Box
            key={i}
            sx={{
              width: 6,
              height: 48,
              borderRadius: 3,
              bgcolor: 'primary.main',
              animation: `${stretch} 1.2s ease-in-out infinite`,
              animationDelay: `${i * 0.1 - 1.2}s`
            }}
          />
        ))}
      </Box>
    </Box>
  );
}
