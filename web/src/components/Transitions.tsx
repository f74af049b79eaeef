import type { ReactElement, Ref } from 'react';
import Fade from '@mui/material/Fade';
import Grow from '@mui/material/Grow';
import Box from '@mui/material/Box';
import type { TransitionProps } from '@mui/material/transitions';

interface TransitionsProps extends Omit<TransitionProps, 'children' | 'timeout'> {
  children: ReactElement;
  type?: 'grow' | 'fade';
  position?: 'top-right' | 'top-left';
  ref?: Ref<HTMLDivElement>;
}

/** Popper transition: grow from the top-right corner (or fade). */
export default function Transitions({
  children,
  type = 'grow',
  position = 'top-right',
  ref,
  ...others
}: TransitionsProps) {
  const origin = position === 'top-left' ? '0 0 0' : 'top right';
  const Transition = type === 'fade' ? Fade : Grow;
  return (
    <Box ref={ref}>
      <Transition {...others} timeout={{ appear: 0, enter: 150, exit: 120 }}>
        <Box sx={{ transformOrigin: origin }}>{children}</Box>
      </Transition>
    </Box>
  );
}
