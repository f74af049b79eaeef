import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { getToken } from '../utils/storage';
import { DASHBOARD_PATH, LOGIN_PATH } from '../config';

/** Signed-in routes: any stored token is enough (spec §2). */
interface GuardProps {
  /** What the guard lets through; the nested routes (<Outlet />) when none. */
  children?: ReactNode;
}

export function AuthGuard({ children }: GuardProps): ReactNode {
  const location = useLocation();
  if (!getToken()) return <Navigate to={LOGIN_PATH} replace state={{ from: location.pathname }} />;
  return children ?? <Outlet />;
}

/** Public routes: a signed-in user goes to the dashboard. */
export function GuestGuard({ children }: GuardProps): ReactNode {
  if (getToken()) return <Navigate to={DASHBOARD_PATH} replace />;
  return children ?? <Outlet />;
}
