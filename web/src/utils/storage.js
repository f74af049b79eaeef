// Browser local storage keys and helpers (portal spec §3).
import { DEFAULT_THEME_MODE } from '../config';

export const KEYS = {
  user: 'user',
  token: 'token',
  impersonatorId: 'impersonator_id',
  originalUser: 'original_user',
  originalToken: 'original_token',
  drawer: 'isDashboardDrawerOpened',
  themeMode: 'themeMode',
  money: 'money'
};

const USER_FIELDS = ['user_id', 'role', 'role_name', 'name', 'balance', 'timezone'];

function safeStorage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function getItem(key) {
  return safeStorage()?.getItem(key) ?? null;
}

export function setItem(key, value) {
  safeStorage()?.setItem(key, value);
}

export function removeItem(key) {
  safeStorage()?.removeItem(key);
}

export function clearStorage() {
  safeStorage()?.clear();
}

/** Reduce a server user record to the stored user shape of spec §3. */
export function toStoredUser(user) {
  if (!user || typeof user !== 'object') return null;
  const stored = {};
  for (const field of USER_FIELDS) stored[field] = user[field] ?? null;
  if (stored.user_id == null && user.id != null) stored.user_id = user.id;
  if (stored.role != null && stored.role !== '' && !Number.isNaN(Number(stored.role)))
    stored.role = Number(stored.role);
  return stored;
}

export function getStoredUser() {
  const raw = getItem(KEYS.user);
  if (!raw) return null;
  try {
    const user = JSON.parse(raw);
    return user && typeof user === 'object' ? user : null;
  } catch {
    return null;
  }
}

function setStoredUser(user) {
  setItem(KEYS.user, JSON.stringify(toStoredUser(user)));
}

/** Window event sent when this tab changes the stored user (a saved profile, a new balance). */
export const USER_CHANGED = 'callroute:user-changed';

/** Merge fields into the stored user (e.g. a refreshed balance); the shell shows them at once. */
export function updateStoredUser(fields) {
  const user = getStoredUser();
  if (!user) return;
  setItem(KEYS.user, JSON.stringify({ ...user, ...fields }));
  window.dispatchEvent(new Event(USER_CHANGED));
}

export function getToken() {
  return getItem(KEYS.token);
}

export function setSession(token, user) {
  setItem(KEYS.token, token);
  setStoredUser(user);
}

export function isImpersonating() {
  return Boolean(getItem(KEYS.impersonatorId) || getItem(KEYS.originalToken));
}

export function getStoredDrawerOpen() {
  const raw = getItem(KEYS.drawer);
  if (raw === null) return true;
  return raw !== 'false';
}

export function setStoredDrawerOpen(open) {
  setItem(KEYS.drawer, JSON.stringify(Boolean(open)));
}

/** The money settings last read for user `userId` (GET /config), or null. */
export function getStoredMoney(userId) {
  try {
    const saved = JSON.parse(getItem(KEYS.money));
    return saved && saved.user_id === userId ? saved.money : null;
  } catch {
    return null;
  }
}

export function setStoredMoney(userId, money) {
  setItem(KEYS.money, JSON.stringify({ user_id: userId, money }));
}

export function getStoredThemeMode() {
  const raw = getItem(KEYS.themeMode);
  return raw === 'light' || raw === 'dark' ? raw : DEFAULT_THEME_MODE;
}

export function setStoredThemeMode(mode) {
  setItem(KEYS.themeMode, mode === 'light' ? 'light' : 'dark');
}
