import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';

vi.mock('../utils/navigation', () => ({ hardNavigate: vi.fn(), reloadPage: vi.fn() }));

import type { InternalAxiosRequestConfig } from 'axios';
import { http } from '../api/client';
import { updateStoredUser } from '../utils/storage';
import ThemeCustomization from '../themes';
import routes from '../routes';
import { resetMenuMaster } from '../store/menu';
import { applyLiveMessage, resetLive } from '../store/live';
import { AVATAR_COLORS } from '../utils/avatar';
import { type MockAnswer, mockAdapter, storedJson } from './helpers';

const USERS = {
  admin: { user_id: 1, role: 1, role_name: 'Admin', name: 'Ada Admin', balance: '0.0000', timezone: 'UTC' },
  customer: {
    user_id: 2,
    role: 2,
    role_name: 'Customer',
    name: 'Carla Customer',
    balance: '42.5000',
    timezone: 'America/New_York'
  },
  buyer: { user_id: 3, role: 3, role_name: 'Buyer', name: 'Bob Buyer', balance: '0', timezone: 'Europe/London' }
};

type Role = keyof typeof USERS;

// The shell's calls answered at the HTTP edge (the generated calls' paths carry '/api', dropped here).
// A screen's own calls fail as with no server.
type Answer = (request: Sent) => MockAnswer | Promise<MockAnswer>;

interface Sent {
  method: string;
  path: string;
  query: Record<string, string>;
}

const ok = (data: unknown): MockAnswer => ({ data: { message: 'OK', data } });
const NO_NOTIFICATIONS = { data: [], total: 0, per_page: 10, current_page: 1, last_page: 1, from: null, to: null };

const SHELL: Record<string, Answer> = {
  'get /config': () => ok({ currency: 'USD', low_balance_threshold: '50.0000' }),
  'get /server-time': () => ok({ server_time: '2026-01-15 13:04:05', timezone: 'UTC' }),
  'get /user/balance/2': () => ok([{ user_id: 2, balance: '42.5000', currency: 'USD' }]),
  'get /notification/notification': () => ok(NO_NOTIFICATIONS),
  'get /notification/unread-count': () => ok({ unread_notification_count: 3 }),
  'post /notification/read-all': () => ok({ unread_notification_count: 0 })
};

let answers: Record<string, Answer> = {};
let sent: Sent[] = [];

function sentOf(config: InternalAxiosRequestConfig): Sent {
  const url = new URL(config.url ?? '', 'http://portal.test');
  const params: Record<string, unknown> = { ...Object.fromEntries(url.searchParams), ...(config.params ?? {}) };
  return {
    method: (config.method ?? 'get').toLowerCase(),
    path: url.pathname.replace(/^\/api/, ''),
    query: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]))
  };
}

function answerShell(config: InternalAxiosRequestConfig): MockAnswer | Promise<MockAnswer> {
  const request = sentOf(config);
  sent.push(request);
  const answer = answers[`${request.method} ${request.path}`];
  return answer ? answer(request) : { network: true };
}

/** The requests made to `method path` so far. */
const requests = (method: string, path: string): Sent[] => sent.filter((r) => r.method === method && r.path === path);

function signIn(role: Role): void {
  localStorage.setItem('token', `${role}-token`);
  localStorage.setItem('user', JSON.stringify(USERS[role]));
}

function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <ThemeCustomization>
      <RouterProvider router={router} />
    </ThemeCustomization>
  );
  return router;
}

const title = async (text: string) => waitFor(() => expect(screen.getByTestId('page-title').textContent).toBe(text));

describe('routes and layout', () => {
  const adapter = http.defaults.adapter;
  beforeEach(() => {
    resetMenuMaster();
    resetLive();
    answers = { ...SHELL };
    sent = [];
    mockAdapter(http, answerShell);
  });
  afterEach(() => {
    http.defaults.adapter = adapter;
    vi.clearAllMocks();
  });

  it('without a token a signed-in route goes to /login', async () => {
    const router = renderApp('/report');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await screen.findByTestId('login-form');
  });

  it('an unknown path goes to /dashboard', async () => {
    signIn('admin');
    const router = renderApp('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    await title('Dashboard');
  });

  it('shows the five-bar loader while a lazy page loads', async () => {
    signIn('admin');
    renderApp('/tariff');
    const loader = screen.queryByTestId('page-loader');
    if (loader) expect(loader.children[0]?.children).toHaveLength(5);
    await title('Tariff');
  });

  it('/ renders the dashboard', async () => {
    signIn('admin');
    renderApp('/');
    await title('Dashboard');
  });

  it('admin: admin menu, clock, live calls, bell, no balance', async () => {
    signIn('admin');
    renderApp('/dashboard');
    await title('Dashboard');
    expect(screen.getByTestId('nav-item-customer').textContent).toBe('User');
    expect(screen.queryByTestId('header-balance')).toBeNull();
    expect(screen.getByTestId('drawer-toggle')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('header-clock').textContent).toMatch(/^\d{2}:\d{2}:\d{2} (AM|PM)$/));
    expect(screen.getByTestId('header-live-calls').getAttribute('href')).toBe('/live-calls');
    expect(screen.getByTestId('live-calls-badge').textContent).toContain('0');
    await waitFor(() => expect(screen.getByTestId('notification-badge').textContent).toContain('3'));
    expect(screen.queryByTestId('back-to-admin')).toBeNull();
    const [avatar] = screen.getAllByTestId('user-avatar');
    expect(avatar?.textContent).toBe('A');
    expect(avatar?.getAttribute('data-color')).toBe(AVATAR_COLORS['A'.charCodeAt(0) % 9] ?? '');
  });

  it('customer: user menu, low balance blinks, refresh refetches', async () => {
    signIn('customer');
    renderApp('/dashboard');
    await title('Dashboard');
    expect(screen.queryByTestId('nav-item-customer')).toBeNull();
    expect(screen.getByTestId('nav-item-user_ivr').textContent).toBe('IVR Auth');
    const balance = await screen.findByTestId('header-balance');
    expect(balance.getAttribute('data-low')).toBe('true');
    expect(screen.getByTestId('balance-amount').textContent).toBe('$42.50');
    await waitFor(() => expect(screen.getByTestId('balance-refresh')).toHaveProperty('disabled', false));
    expect(requests('get', '/user/balance/2')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('balance-refresh'));
    await waitFor(() => expect(requests('get', '/user/balance/2')).toHaveLength(2));
    expect(screen.getByTestId('header-clock').getAttribute('data-timezone')).toBe('America/New_York');
  });

  it('customer: a failed balance fetch only stops the spinner', async () => {
    answers['get /user/balance/2'] = () => ({ status: 500, data: { message: 'down' } });
    signIn('customer');
    renderApp('/dashboard');
    await title('Dashboard');
    await waitFor(() => expect(screen.getByTestId('balance-refresh')).toHaveProperty('disabled', false));
    expect(screen.getByTestId('balance-amount').textContent).toBe('$42.50');
  });

  it('buyer: no drawer, toggle, balance, clock or live calls; Report and Target chips', async () => {
    signIn('buyer');
    renderApp('/dashboard');
    await title('Dashboard');
    for (const id of ['drawer', 'drawer-toggle', 'header-balance', 'header-clock', 'header-live-calls'])
      expect(screen.queryByTestId(id)).toBeNull();
    expect(screen.getByTestId('buyer-chip-report').getAttribute('href')).toBe('/buyercdr');
    expect(screen.getByTestId('buyer-chip-target').getAttribute('href')).toBe('/buyer-target');
    expect(screen.getByTestId('header-notifications')).toBeTruthy();
  });

  it('notification dropdown: title, Loading..., then empty message', async () => {
    let resolve: (answer: MockAnswer) => void = () => {};
    answers['get /notification/notification'] = () => new Promise((r) => (resolve = r));
    signIn('admin');
    renderApp('/dashboard');
    await title('Dashboard');
    fireEvent.click(screen.getByTestId('header-notifications'));
    expect(await screen.findByText('Notification')).toBeTruthy();
    expect(screen.getByText('Loading...')).toBeTruthy();
    expect(requests('get', '/notification/notification').map((r) => r.query)).toEqual([{ page: '1', perpage: '10' }]);
    await act(async () => resolve(ok({ data: [], total: 0 })));
    expect(await screen.findByText('No notifications found!')).toBeTruthy();
  });

  it('opening the bell marks the notifications read; their times are in the user timezone', async () => {
    const at = '2026-11-25T15:04:00Z';
    answers['get /notification/notification'] = () =>
      ok({ data: [{ id: 1, kind: 'low_balance', text: 'Low balance', created_at: at, read_at: null }], total: 1 });
    signIn('customer');
    renderApp('/dashboard');
    await title('Dashboard');
    await waitFor(() => expect(screen.getByTestId('notification-badge').textContent).toBe('3'));
    fireEvent.click(screen.getByTestId('header-notifications'));
    expect(await screen.findByText('Low balance')).toBeTruthy();
    expect(screen.getByText('2026-11-25 10:04 EST')).toBeTruthy(); // America/New_York, not the browser's zone
    await waitFor(() => expect(requests('post', '/notification/read-all')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('notification-badge').textContent).toBe('0')); // MUI hides a zero badge
  });

  it('a new name, timezone or pushed balance shows in the header without a reload', async () => {
    signIn('customer');
    renderApp('/dashboard');
    await title('Dashboard');
    await waitFor(() => expect(screen.getByTestId('balance-refresh')).toHaveProperty('disabled', false));
    act(() => updateStoredUser({ name: 'uiwalk-customer', timezone: 'Asia/Tokyo' }));
    await waitFor(() => expect(screen.getByTestId('header-clock').getAttribute('data-timezone')).toBe('Asia/Tokyo'));
    expect(screen.getByTestId('header-profile').textContent).toContain('uiwalk-customer');
    act(() => applyLiveMessage({ balance: { user_id: 2, balance: '112.5000', currency: 'USD' } }));
    await waitFor(() => expect(screen.getByTestId('balance-amount').textContent).toBe('$112.50'));
    expect(storedJson('user')).toMatchObject({ balance: '112.5000' });
  });

  it('impersonating: Back To Admin is shown', async () => {
    signIn('customer');
    localStorage.setItem('impersonator_id', '1');
    localStorage.setItem('original_user', JSON.stringify(USERS.admin));
    localStorage.setItem('original_token', 'admin-token');
    renderApp('/dashboard');
    await title('Dashboard');
    expect(screen.getByTestId('back-to-admin').textContent).toContain('Back To Admin');
  });

  it('drawer toggle saves isDashboardDrawerOpened', async () => {
    signIn('admin');
    renderApp('/dashboard');
    await title('Dashboard');
    expect(screen.getByTestId('drawer').getAttribute('data-open')).toBe('true');
    fireEvent.click(screen.getByTestId('drawer-toggle'));
    expect(localStorage.getItem('isDashboardDrawerOpened')).toBe('false');
    await waitFor(() => expect(screen.getByTestId('drawer').getAttribute('data-open')).toBe('false'));
  });

  it('profile menu: name, role, theme toggle saved, Change Password', async () => {
    signIn('admin');
    const router = renderApp('/dashboard');
    await title('Dashboard');
    fireEvent.click(screen.getByTestId('header-profile'));
    expect((await screen.findByTestId('profile-name')).textContent).toBe('Ada Admin');
    expect(screen.getByTestId('profile-role').textContent).toBe('Admin');
    fireEvent.click(screen.getByTestId('theme-toggle'));
    expect(localStorage.getItem('themeMode')).toBe('light');
    fireEvent.click(screen.getByText('Change Password'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/changepassword'));
  });
});
