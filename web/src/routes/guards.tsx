import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { getToken } from '../utils/storage';
import { DASHBOARD_PATH, LOGIN_PATH } from '../config';

/** Signed-in routes: any stored token is enough (spec §2). */
export function AuthGuard({ children }) {
  const location = useLocation();
  if (!getToken()) return <Navigate to={LOGIN_PATH} replace state={{ from: location.pathname }} />;
  return children ?? <Outlet />;
}

/** Public routes: a signed-in user goes to the dashboard. */
export function GuestGuard({ children }) {
  if (getToken()) return <Navigate to={DASHBOARD_PATH} replace />;
  return children ?? <Outlet />;
}
