import { type ReactElement, useCallback, useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { DownOutlined } from '@ant-design/icons';
import Navigation from './Navigation';
import type { Menu } from '../../../../menu-items';

/** True when `el` has more content below what is shown (a few pixels of slack). */
export const hasMoreBelow = (el: Pick<Element, 'scrollTop' | 'clientHeight' | 'scrollHeight'> | null): boolean =>
  Boolean(el) && el !== null && el.scrollTop + el.clientHeight < el.scrollHeight - 4;

export interface DrawerContentProps {
  menu: Menu;
  open: boolean;
  /** The temporary drawer closes once an item is chosen. */
  closeOnNavigate?: boolean;
}

export default function DrawerContent({ menu, open, closeOnNavigate = false }: DrawerContentProps): ReactElement {
  const ref = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState(false);
  const measure = useCallback(() => setMore(hasMoreBelow(ref.current)), []);

  // The admin menu is taller than a 900 px screen: a cue at the bottom says there is more.
  useEffect(() => {
    measure();
    const box = ref.current;
    if (typeof ResizeObserver === 'undefined' || !box) return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, [measure, open, menu]);

  return (
    <Box
      ref={ref}
      onScroll={measure}
      sx={{ overflowY: 'auto', overflowX: 'hidden', flexGrow: 1, pb: 2, position: 'relative' }}
    >
      <Navigation menu={menu} open={open} closeOnNavigate={closeOnNavigate} />
      {more && (
        <ButtonBase
          aria-label="More menu items below"
          data-testid="drawer-scroll-cue"
          onClick={() => ref.current?.scrollBy({ top: ref.current.clientHeight * 0.8, behavior: 'smooth' })}
          sx={(theme) => ({
            position: 'sticky',
            bottom: -16,
            width: '100%',
            height: 40,
            mb: -2,
            color: 'text.secondary',
            background: `linear-gradient(to bottom, transparent, ${theme.palette.background.paper} 70%)`
          })}
        >
          <DownOutlined />
        </ButtonBase>
      )}
    </Box>
  );
}
