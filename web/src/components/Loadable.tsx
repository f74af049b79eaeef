import { Suspense, type ComponentType } from 'react';
import Loader from './Loader';

/** Wrap a lazy component so the five-bar loader shows while it loads. */
export default function Loadable<Props extends object>(Component: ComponentType<Props>) {
  function WithLoader(props: Props) {
    return (
      <Suspense fallback={<Loader />}>
        <Component {...props} />
      </Suspense>
    );
  }
  return WithLoader;
}
