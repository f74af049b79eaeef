// The signed-in screens' code, each its own chunk. The route table loads one when it is opened;
// the shell fetches the rest (but the dashboard's charts) once it is idle (prefetchScreens), so
// moving between screens never waits for code and the five-bar overlay shows only on a cold start.
export const SCREENS = {
  Dashboard: () => import('../pages/dashboard'),
  BuyerCdr: () => import('../pages/buyercdr'),
  Report: () => import('../pages/report'),
  ManageNumber: () => import('../pages/manage-number'),
  UploadNumber: () => import('../pages/uploadnumber'),
  NumberPage: () => import('../pages/number'),
  ManageTrunk: () => import('../pages/manage-trunk'),
  Campaign: () => import('../pages/campaign'),
  CampaignView: () => import('../pages/campaign/CampaignView'),
  Target: () => import('../pages/target'),
  BuyerTarget: () => import('../pages/buyer-target'),
  BlockNumber: () => import('../pages/block-number'),
  Buyer: () => import('../pages/buyer'),
  Ivr: () => import('../pages/ivr'),
  UserIvr: () => import('../pages/user_ivr'),
  Customer: () => import('../pages/customer'),
  Vendor: () => import('../pages/vendor'),
  Topup: () => import('../pages/topup'),
  Tariff: () => import('../pages/tariff'),
  RateCard: () => import('../pages/rate-card'),
  LiveCalls: () => import('../pages/live-calls'),
  Wallet: () => import('../pages/wallet'),
  Invoice: () => import('../pages/invoice'),
  ChangePassword: () => import('../pages/changepassword'),
  Profile: () => import('../pages/profile'),
  Source: () => import('../pages/source')
} as const;

/** Fetch every screen's code in the background, when the browser is idle. */
export function prefetchScreens(): () => void {
  // Built chunks only: under Vite's dev server or Vitest each import would compile the screen
  // (seconds of work competing with the screen being opened), not fetch a file.
  if (!import.meta.env.PROD) return () => undefined;
  // Not the dashboard: its chart library is the heaviest chunk, and people land there after signing
  // in anyway; on every other screen it would be read for nothing (e2e/screens/app.mjs checks it).
  const rest = Object.entries(SCREENS).filter(([name]) => name !== 'Dashboard');
  const start = () => rest.forEach(([, load]) => void load().catch(() => undefined));
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(start, { timeout: 3000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(start, 1500);
  return () => window.clearTimeout(id);
}
