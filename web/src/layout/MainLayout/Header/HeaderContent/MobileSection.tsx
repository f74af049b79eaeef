// Below lg the header items move into a more-menu.
import { type ReactElement, type ReactNode, useState } from 'react';
import { useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import ClickAwayListener from '@mui/material/ClickAwayListener';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import { alpha, useTheme } from '@mui/material/styles';
import { MoreOutlined } from '@ant-design/icons';
import Transitions from '../../../../components/Transitions';

export default function MobileSection({ children }: { children: ReactNode }): ReactElement {
  const theme = useTheme();
  // The button the menu hangs from, kept in state (a callback ref) since the menu reads it to render.
  const [anchor, setAnchor] = useState<HTMLButtonElement | null>(null);
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();

  // Close after navigating from one of its items (state reset on a new path, during render).
  const [shownAt, setShownAt] = useState(pathname);
  if (shownAt !== pathname) {
    setShownAt(pathname);
    setOpen(false);
  }

  const close = (event: MouseEvent | TouchEvent): void => {
    if (event.target instanceof Node && anchor?.contains(event.target)) return;
    setOpen(false);
  };

  return (
    <>
      <IconButton
        ref={setAnchor}
        aria-label="More"
        aria-haspopup="true"
        aria-expanded={open}
        data-testid="header-more"
        onClick={() => setOpen((o) => !o)}
        sx={{ color: 'text.primary', bgcolor: open ? alpha(theme.palette.primary.main, 0.12) : 'transparent' }}
      >
        <MoreOutlined style={{ transform: 'rotate(90deg)' }} />
      </IconButton>
      <Popper
        placement="bottom-end"
        open={open}
        anchorEl={anchor}
        transition
        sx={{ width: '100%', zIndex: 1250 }}
        popperOptions={{ modifiers: [{ name: 'offset', options: { offset: [0, 9] } }] }}
      >
        {({ TransitionProps }) => (
          <Transitions type="fade" {...TransitionProps}>
            <Paper
              sx={{
                boxShadow: theme.customShadows.z1,
                borderRadius: 0,
                borderBottom: '1px solid',
                borderBottomColor: 'divider'
              }}
            >
              <ClickAwayListener onClickAway={close}>
                <Box data-testid="more-menu" sx={{ px: 2, py: 1.25 }}>
                  {children}
                </Box>
              </ClickAwayListener>
            </Paper>
          </Transitions>
        )}
      </Popper>
    </>
  );
}
