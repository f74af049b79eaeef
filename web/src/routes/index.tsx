// Route table (spec §2). Every screen is lazy and shows the five-bar loader while it loads.
import { type ComponentType, lazy } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';

import Loadable from '../components/Loadable';
import AuthLayout from '../layout/AuthLayout';
import { AuthGuard, GuestGuard } from './guards';
import { DASHBOARD_PATH } from '../config';
import { SCREENS } from './screens';

// The signed-in shell (drawer, header, live feed) is lazy too: /login stays within the 250 KB budget.
const MainLayout = Loadable(lazy(() => import('../layout/MainLayout')));
const Login = Loadable(lazy(() => import('../pages/auth/Login')));
const Register = Loadable(lazy(() => import('../pages/auth/Register')));
const ForgotPassword = Loadable(lazy(() => import('../pages/auth/ForgotPassword')));
const ResetPassword = Loadable(lazy(() => import('../pages/auth/ResetPassword')));
const ConfirmRegistration = Loadable(lazy(() => import('../pages/auth/ConfirmRegistration')));

const Dashboard = Loadable(lazy(SCREENS.Dashboard));
const BuyerCdr = Loadable(lazy(SCREENS.BuyerCdr));
const Report = Loadable(lazy(SCREENS.Report));
const ManageNumber = Loadable(lazy(SCREENS.ManageNumber));
const UploadNumber = Loadable(lazy(SCREENS.UploadNumber));
const NumberPage = Loadable(lazy(SCREENS.NumberPage));
const ManageTrunk = Loadable(lazy(SCREENS.ManageTrunk));
const Campaign = Loadable(lazy(SCREENS.Campaign));
const CampaignView = Loadable(lazy(SCREENS.CampaignView));
const Target = Loadable(lazy(SCREENS.Target));
const BuyerTarget = Loadable(lazy(SCREENS.BuyerTarget));
const BlockNumber = Loadable(lazy(SCREENS.BlockNumber));
const Buyer = Loadable(lazy(SCREENS.Buyer));
const Ivr = Loadable(lazy(SCREENS.Ivr));
const UserIvr = Loadable(lazy(SCREENS.UserIvr));
const Customer = Loadable(lazy(SCREENS.Customer));
const Vendor = Loadable(lazy(SCREENS.Vendor));
const Topup = Loadable(lazy(SCREENS.Topup));
const Tariff = Loadable(lazy(SCREENS.Tariff));
const RateCard = Loadable(lazy(SCREENS.RateCard));
const LiveCalls = Loadable(lazy(SCREENS.LiveCalls));
const Wallet = Loadable(lazy(SCREENS.Wallet));
const Invoice = Loadable(lazy(SCREENS.Invoice));
const ChangePassword = Loadable(lazy(SCREENS.ChangePassword));
const Profile = Loadable(lazy(SCREENS.Profile));
// Not in the menu (spec §2's menus are fixed): the dashboard's by-source card and the number form link here.
const Source = Loadable(lazy(SCREENS.Source));

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
  ['profile', Profile],
  ['source', Source]
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
