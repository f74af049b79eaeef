// Route table (spec §2). Every screen is lazy and shows the five-bar loader while it loads.
import { type ComponentType, lazy } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';

import Loadable from '../components/Loadable';
import AuthLayout from '../layout/AuthLayout';
import { AuthGuard, GuestGuard } from './guards';
import { DASHBOARD_PATH } from '../config';

// The signed-in shell (drawer, header, live feed) is lazy too: /login stays within the 250 KB budget.
const MainLayout = Loadable(lazy(() => import('../layout/MainLayout')));
const Login = Loadable(lazy(() => import('../pages/auth/Login')));
const Register = Loadable(lazy(() => import('../pages/auth/Register')));
const ForgotPassword = Loadable(lazy(() => import('../pages/auth/ForgotPassword')));
const ResetPassword = Loadable(lazy(() => import('../pages/auth/ResetPassword')));
const ConfirmRegistration = Loadable(lazy(() => import('../pages/auth/ConfirmRegistration')));

const Dashboard = Loadable(lazy(() => import('../pages/dashboard')));
const BuyerCdr = Loadable(lazy(() => import('../pages/buyercdr')));
const Report = Loadable(lazy(() => import('../pages/report')));
const ManageNumber = Loadable(lazy(() => import('../pages/manage-number')));
const UploadNumber = Loadable(lazy(() => import('../pages/uploadnumber')));
const NumberPage = Loadable(lazy(() => import('../pages/number')));
const ManageTrunk = Loadable(lazy(() => import('../pages/manage-trunk')));
const Campaign = Loadable(lazy(() => import('../pages/campaign')));
const CampaignView = Loadable(lazy(() => import('../pages/campaign/CampaignView')));
const Target = Loadable(lazy(() => import('../pages/target')));
const BuyerTarget = Loadable(lazy(() => import('../pages/buyer-target')));
const BlockNumber = Loadable(lazy(() => import('../pages/block-number')));
const Buyer = Loadable(lazy(() => import('../pages/buyer')));
const Ivr = Loadable(lazy(() => import('../pages/ivr')));
const UserIvr = Loadable(lazy(() => import('../pages/user_ivr')));
const Customer = Loadable(lazy(() => import('../pages/customer')));
const Vendor = Loadable(lazy(() => import('../pages/vendor')));
const Topup = Loadable(lazy(() => import('../pages/topup')));
const Tariff = Loadable(lazy(() => import('../pages/tariff')));
const RateCard = Loadable(lazy(() => import('../pages/rate-card')));
const LiveCalls = Loadable(lazy(() => import('../pages/live-calls')));
const Wallet = Loadable(lazy(() => import('../pages/wallet')));
const Invoice = Loadable(lazy(() => import('../pages/invoice')));
const ChangePassword = Loadable(lazy(() => import('../pages/changepassword')));
const Profile = Loadable(lazy(() => import('../pages/profile')));

/** Signed-in paths with their elements, in spec §2 order. */
const SIGNED_IN_ROUTES: ReadonlyArray<readonly [string, ComponentType]> = [
  ['dashboard', Dashboard],
  ['buyercdr', BuyerCdr],
  ['report', Report],
  ['manage-number', ManageNumber],
  ['uploadnumber', UploadNumber],
  ['number', NumberPage],
  ['manage-trunk', ManageTrunk],
  ['campaign', Campaign],
  // One campaign's page, reached from the list (not a menu entry): its tab in the URL.
  ['campaign/:id', CampaignView],
  ['campaign/:id/:tab', CampaignView],
  ['target', Target],
  ['buyer-target', BuyerTarget],
  ['block-number', BlockNumber],
  ['buyer', Buyer],
  ['ivr', Ivr],
  ['user_ivr', UserIvr],
  ['customer', Customer],
  ['vendor', Vendor],
  ['topup', Topup],
  ['tariff', Tariff],
  ['rate-card', RateCard],
  ['live-calls', LiveCalls],
  ['wallet', Wallet],
  ['invoice', Invoice],
  ['changepassword', ChangePassword],
  ['profile', Profile]
];

const routes: RouteObject[] = [
  {
    path: '/',
    element: (
      <AuthGuard>
        <MainLayout />
      </AuthGuard>
    ),
    children: [
      { index: true, element: <Dashboard /> },
      ...SIGNED_IN_ROUTES.map(([path, Page]) => ({ path, element: <Page /> }))
    ]
  },
  {
    element: (
      <GuestGuard>
        <AuthLayout />
      </GuestGuard>
    ),
    children: [
      { path: '/login', element: <Login /> },
      { path: '/register', element: <Register /> },
      { path: '/register/confirm', element: <ConfirmRegistration /> },
      { path: '/forgot-password', element: <ForgotPassword /> },
      { path: '/reset-password', element: <ResetPassword /> }
    ]
  },
  { path: '*', element: <Navigate to={DASHBOARD_PATH} replace /> }
];

export default routes;
