import type { ReactElement } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import ThemeCustomization from './themes';
import routes from './routes';

const router = createBrowserRouter(routes);

export default function App(): ReactElement {
  return (
    <ThemeCustomization>
      <RouterProvider router={router} />
    </ThemeCustomization>
  );
}
