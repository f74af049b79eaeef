import { storedJson } from './helpers';
import { describe, expect, it } from 'vitest';
import {
  getStoredDrawerOpen,
  getStoredThemeMode,
  isImpersonating,
  setSession,
  setStoredDrawerOpen,
  setStoredThemeMode,
  toStoredUser,
  getStoredUser
} from '../utils/storage';

describe('local storage (spec §3)', () => {
  it('themeMode defaults to dark and stores light|dark', () => {
    expect(getStoredThemeMode()).toBe('dark');
    setStoredThemeMode('light');
    expect(localStorage.getItem('themeMode')).toBe('light');
    expect(getStoredThemeMode()).toBe('light');
    localStorage.setItem('themeMode', 'purple');
    expect(getStoredThemeMode()).toBe('dark');
  });

  it('isDashboardDrawerOpened defaults to true', () => {
    expect(getStoredDrawerOpen()).toBe(true);
    setStoredDrawerOpen(false);
    expect(localStorage.getItem('isDashboardDrawerOpened')).toBe('false');
    expect(getStoredDrawerOpen()).toBe(false);
  });

  it('stores token and the user fields of §3', () => {
    setSession('tok', {
      user_id: 7,
      role: '2',
      role_name: 'Customer',
      name: 'Acme',
      balance: '10.0000',
      timezone: 'UTC',
      email: 'a@b.co',
      status: 'active'
    });
    expect(localStorage.getItem('token')).toBe('tok');
    expect(storedJson('user')).toEqual({
      user_id: 7,
      role: 2,
      role_name: 'Customer',
      name: 'Acme',
      balance: '10.0000',
      timezone: 'UTC'
    });
    expect(getStoredUser()?.name).toBe('Acme');
  });

  it('accepts id for user_id', () => {
    expect(toStoredUser({ id: 3, role: 3 })).toMatchObject({ user_id: 3, role: 3 });
  });

  it('detects impersonation', () => {
    expect(isImpersonating()).toBe(false);
    localStorage.setItem('impersonator_id', '1');
    expect(isImpersonating()).toBe(true);
  });
});
