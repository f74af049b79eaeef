import { Suspense } from 'react';
import Loader from './Loader';

/** Wrap a lazy component so the five-bar loader shows while it loads. */
export default function Loadable(Component) {
  function WithLoader(props) {
    return (
      <Suspense fallback={<Loader />}>
        <Component {...props} />
      </Suspense>
    );
  }
  return WithLoader;
}
