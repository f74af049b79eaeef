import Box from '@mui/material/Box';
import Navigation from './Navigation';

export default function DrawerContent({ menu, open, closeOnNavigate = false }) {
  return (
    <Box sx={{ overflowY: 'auto', overflowX: 'hidden', flexGrow: 1, pb: 2 }}>
      <Navigation menu={menu} open={open} closeOnNavigate={closeOnNavigate} />
    </Box>
  );
}
