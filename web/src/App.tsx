import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import ThemeCustomization from './themes';
import routes from './routes';

const router = createBrowserRouter(routes);

export default function App() {
  return (
    <ThemeCustomization>
      <RouterProvider router={router} />
    </ThemeCustomization>
  );
}
