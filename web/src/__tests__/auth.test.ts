import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../utils/navigation', () => ({ hardNavigate: vi.fn(), reloadPage: vi.fn() }));

import { hardNavigate, reloadPage } from '../utils/navigation';
import { http } from '../api/client';
import { RETURN_MESSAGES, confirmRegistration, impersonate, login, logout, register, returnToAdmin } from '../api/auth';
import { mockAdapter, nth, sentJson, storedJson } from './helpers';

const ADMIN = { user_id: 1, role: 1, role_name: 'Admin', name: 'Ada', balance: '0.0000', timezone: 'UTC' };
const CUSTOMER = {
  user_id: 2,
  role: 2,
  role_name: 'Customer',
  name: 'Carla',
  balance: '42.5000',
  timezone: 'America/New_York',
  email: 'c@x.io',
  status: 'active'
};

function signedInAsAdmin() {
  localStorage.setItem('token', 'admin-token');
  localStorage.setItem('user', JSON.stringify(ADMIN));
}

function impersonating() {
  localStorage.setItem('token', 'imp-token');
  localStorage.setItem('user', JSON.stringify(CUSTOMER));
  localStorage.setItem('impersonator_id', '1');
  localStorage.setItem('original_user', JSON.stringify(ADMIN));
  localStorage.setItem('original_token', 'admin-token');
}

describe('session calls', () => {
  let original: typeof http.defaults.adapter;
  beforeEach(() => {
    original = http.defaults.adapter;
    vi.mocked(hardNavigate).mockClear();
    vi.mocked(reloadPage).mockClear();
  });
  afterEach(() => {
    http.defaults.adapter = original;
  });

  it('login stores token and user', async () => {
    const calls = mockAdapter(http, () => ({ data: { message: 'ok', data: { token: 't1', user: CUSTOMER } } }));
    await login({ email: ' c@x.io ', password: 'pw' });
    expect(nth(calls).url).toBe('/api/login');
    expect(sentJson(nth(calls))).toEqual({ email: 'c@x.io', password: 'pw' });
    expect(localStorage.getItem('token')).toBe('t1');
    expect(storedJson('user')).toEqual({
      user_id: 2,
      role: 2,
      role_name: 'Customer',
      name: 'Carla',
      balance: '42.5000',
      timezone: 'America/New_York'
    });
  });

  it('register posts name, email, password, timezone and stores the session', async () => {
    const calls = mockAdapter(http, () => ({
      status: 201,
      data: { message: 'ok', data: { token: 't2', user: CUSTOMER } }
    }));
    // The sign-up form's values, confirmation included: only the API's fields are sent.
    const form = { name: 'Carla', email: 'c@x.io', password: 'abcd1234', confirm: 'abcd1234', timezone: 'Asia/Tokyo' };
    await register(form);
    expect(sentJson(nth(calls))).toEqual({
      name: 'Carla',
      email: 'c@x.io',
      password: 'abcd1234',
      timezone: 'Asia/Tokyo'
    });
    expect(localStorage.getItem('token')).toBe('t2');
  });

  it('register with a mailed link to finish stores no session and resolves to the message', async () => {
    mockAdapter(http, () => ({ status: 202, data: { message: 'Check your inbox.', data: null } }));
    const result = await register({ name: 'Carla', email: 'c@x.io', password: 'abcd1234', timezone: 'UTC' });
    expect(result).toEqual({ pending: true, message: 'Check your inbox.' });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('confirmRegistration posts the mailed token and stores the new session', async () => {
    const calls = mockAdapter(http, () => ({
      status: 201,
      data: { message: 'ok', data: { token: 't3', user: CUSTOMER } }
    }));
    await confirmRegistration('mailed-token');
    expect(nth(calls).url).toBe('/api/register/confirm');
    expect(sentJson(nth(calls))).toEqual({ token: 'mailed-token' });
    expect(localStorage.getItem('token')).toBe('t3');
  });

  it('logout calls POST /logout, clears storage and reloads', async () => {
    signedInAsAdmin();
    const calls = mockAdapter(http, () => ({ data: { message: 'bye', data: null } }));
    await logout();
    expect(nth(calls).method).toBe('post');
    expect(nth(calls).url).toBe('/api/logout');
    expect(localStorage.length).toBe(0);
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('logout still clears and reloads when the call fails', async () => {
    signedInAsAdmin();
    mockAdapter(http, () => ({ status: 500, data: { message: 'down' } }));
    await logout();
    expect(localStorage.length).toBe(0);
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('impersonate saves the admin session and swaps in the user', async () => {
    signedInAsAdmin();
    const calls = mockAdapter(http, () => ({
      data: { message: 'ok', data: { token: 'imp-token', user: CUSTOMER, impersonator_id: 1 } }
    }));
    await impersonate(2);
    expect(nth(calls).url).toBe('/api/user/impersonate/2');
    expect(nth(calls).headers.get('Authorization')).toBe('Bearer admin-token');
    expect(localStorage.getItem('original_token')).toBe('admin-token');
    expect(storedJson('original_user')).toEqual(ADMIN);
    expect(localStorage.getItem('impersonator_id')).toBe('1');
    expect(localStorage.getItem('token')).toBe('imp-token');
    expect(storedJson('user')).toMatchObject({ name: 'Carla' });
    expect(hardNavigate).toHaveBeenCalledWith('/dashboard');
  });
});

describe('Back To Admin (spec §4, §8)', () => {
  let original: typeof http.defaults.adapter;
  beforeEach(() => {
    original = http.defaults.adapter;
    vi.mocked(hardNavigate).mockClear();
  });
  afterEach(() => {
    http.defaults.adapter = original;
  });

  it('restores the admin session and clears the impersonation keys', async () => {
    impersonating();
    const notify = vi.fn();
    const calls = mockAdapter(http, () => ({ data: { message: 'ok', data: { user: { id: 1, name: 'Ada' } } } }));
    expect(await returnToAdmin({ notify })).toBe(true);
    expect(nth(calls).url).toBe('/api/impersonate/return');
    expect(sentJson(nth(calls))).toEqual({ impersonator_id: 1 });
    expect(nth(calls).headers.get('Authorization')).toBe('Bearer imp-token');
    expect(localStorage.getItem('token')).toBe('admin-token');
    expect(storedJson('user')).toEqual(ADMIN);
    for (const k of ['impersonator_id', 'original_user', 'original_token']) expect(localStorage.getItem(k)).toBeNull();
    expect(notify).not.toHaveBeenCalled();
    expect(hardNavigate).toHaveBeenCalledWith('/dashboard');
  });

  it("alerts 'Missing impersonator_id. Cannot return to admin.'", async () => {
    impersonating();
    localStorage.removeItem('impersonator_id');
    const notify = vi.fn();
    const calls = mockAdapter(http, () => ({ data: {} }));
    expect(await returnToAdmin({ notify })).toBe(false);
    expect(notify).toHaveBeenCalledWith('Missing impersonator_id. Cannot return to admin.');
    expect(calls).toHaveLength(0);
  });

  it("alerts 'Failed to return to admin: No data received.'", async () => {
    impersonating();
    const notify = vi.fn();
    mockAdapter(http, () => ({ data: { message: 'ok', data: null } }));
    expect(await returnToAdmin({ notify })).toBe(false);
    expect(notify).toHaveBeenCalledWith('Failed to return to admin: No data received.');
    expect(localStorage.getItem('token')).toBe('imp-token');
  });

  it("alerts 'Failed to return to admin: Original session data missing.'", async () => {
    impersonating();
    localStorage.removeItem('original_token');
    const notify = vi.fn();
    mockAdapter(http, () => ({ data: { message: 'ok', data: { user: { id: 1 } } } }));
    expect(await returnToAdmin({ notify })).toBe(false);
    expect(notify).toHaveBeenCalledWith('Failed to return to admin: Original session data missing.');
    expect(hardNavigate).not.toHaveBeenCalled();
  });

  it("alerts 'Failed to logout impersonated user' on any other failure", async () => {
    impersonating();
    const notify = vi.fn();
    mockAdapter(http, () => ({ status: 500, data: { message: 'down' } }));
    expect(await returnToAdmin({ notify })).toBe(false);
    expect(notify).toHaveBeenCalledWith('Failed to logout impersonated user');
  });

  it('uses window.alert by default', async () => {
    localStorage.clear();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    await returnToAdmin();
    expect(alert).toHaveBeenCalledWith(RETURN_MESSAGES.missingId);
  });
});
