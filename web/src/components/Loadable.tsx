import { Suspense, useEffect, useState, type ComponentType } from 'react';
import Loader from './Loader';

// A screen whose code is already fetched (prefetched by the shell) suspends for a moment only:
// the overlay waits this long, so it shows while code really loads, never as a flash.
const OVERLAY_DELAY_MS = 150;

function DelayedLoader() {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setShown(true), OVERLAY_DELAY_MS);
    return () => clearTimeout(t);
  }, []);
  return shown ? <Loader /> : null;
}

/** Wrap a lazy component so the five-bar loader shows while its code loads. */
export default function Loadable<Props extends object>(Component: ComponentType<Props>) {
  function WithLoader(props: Props) {
    return (
      <Suspense fallback={<DelayedLoader />}>
        <Component {...props} />
      </Suspense>
    );
  }
  return WithLoader;
}
