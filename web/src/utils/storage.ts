// Browser local storage keys and helpers (portal spec §3).
import { DEFAULT_THEME_MODE, type ThemeMode } from '../config';
import type { StoredUser } from '../client';
import type { MoneyConfig } from '../store/money';

export const KEYS = {
  user: 'user',
  token: 'token',
  impersonatorId: 'impersonator_id',
  originalUser: 'original_user',
  originalToken: 'original_token',
  drawer: 'isDashboardDrawerOpened',
  themeMode: 'themeMode',
  money: 'money'
} as const;

type Nullable<T> = { [K in keyof T]: T[K] | null };

/** The user kept in local storage (spec §3): the API's user fields the shell reads, null when not sent. */
export type SessionUser = Nullable<Pick<StoredUser, 'user_id' | 'role_name' | 'name' | 'balance' | 'timezone'>> & {
  role: number | string | null;
};

/** A user record as a server answer carries it (sign-in, impersonation, a listed user). */
export type ServerUser = Partial<Nullable<Omit<StoredUser, 'role'>>> & {
  id?: number | null;
  role?: number | string | null;
};

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function getItem(key: string): string | null {
  return safeStorage()?.getItem(key) ?? null;
}

export function setItem(key: string, value: string): void {
  safeStorage()?.setItem(key, value);
}

export function removeItem(key: string): void {
  safeStorage()?.removeItem(key);
}

export function clearStorage(): void {
  safeStorage()?.clear();
}

/** Reduce a server user record to the stored user shape of spec §3. */
export function toStoredUser(user: ServerUser | null | undefined): SessionUser | null {
  if (!user || typeof user !== 'object') return null;
  const role = user.role ?? null;
  return {
    user_id: user.user_id ?? user.id ?? null,
    role: role != null && role !== '' && !Number.isNaN(Number(role)) ? Number(role) : role,
    role_name: user.role_name ?? null,
    name: user.name ?? null,
    balance: user.balance ?? null,
    timezone: user.timezone ?? null
  };
}

export function getStoredUser(): SessionUser | null {
  const raw = getItem(KEYS.user);
  if (!raw) return null;
  try {
    const user: unknown = JSON.parse(raw);
    // JSON from local storage: this module wrote it from toStoredUser.
    return user && typeof user === 'object' ? (user as SessionUser) : null;
  } catch {
    return null;
  }
}

function setStoredUser(user: ServerUser | null | undefined): void {
  setItem(KEYS.user, JSON.stringify(toStoredUser(user)));
}

/** Window event sent when this tab changes the stored user (a saved profile, a new balance). */
export const USER_CHANGED = 'callroute:user-changed';

/** Merge fields into the stored user (e.g. a refreshed balance); the shell shows them at once. */
export function updateStoredUser(fields: Partial<SessionUser>): void {
  const user = getStoredUser();
  if (!user) return;
  setItem(KEYS.user, JSON.stringify({ ...user, ...fields }));
  window.dispatchEvent(new Event(USER_CHANGED));
}

export function getToken(): string | null {
  return getItem(KEYS.token);
}

export function setSession(token: string, user: ServerUser | null | undefined): void {
  setItem(KEYS.token, token);
  setStoredUser(user);
}

export function isImpersonating(): boolean {
  return Boolean(getItem(KEYS.impersonatorId) || getItem(KEYS.originalToken));
}

export function getStoredDrawerOpen(): boolean {
  const raw = getItem(KEYS.drawer);
  if (raw === null) return true;
  return raw !== 'false';
}

export function setStoredDrawerOpen(open: boolean): void {
  setItem(KEYS.drawer, JSON.stringify(Boolean(open)));
}

/** The money settings last read for user `userId` (GET /config), or null. */
export function getStoredMoney(userId: number | null | undefined): MoneyConfig | null {
  try {
    // JSON from local storage, written by setStoredMoney below.
    const saved = JSON.parse(getItem(KEYS.money) ?? 'null') as { user_id: number; money: MoneyConfig } | null;
    return saved && saved.user_id === userId ? saved.money : null;
  } catch {
    return null;
  }
}

export function setStoredMoney(userId: number | null | undefined, money: MoneyConfig): void {
  setItem(KEYS.money, JSON.stringify({ user_id: userId, money }));
}

export function getStoredThemeMode(): ThemeMode {
  const raw = getItem(KEYS.themeMode);
  return raw === 'light' || raw === 'dark' ? raw : DEFAULT_THEME_MODE;
}

export function setStoredThemeMode(mode: ThemeMode): void {
  setItem(KEYS.themeMode, mode === 'light' ? 'light' : 'dark');
}
