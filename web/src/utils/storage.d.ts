// Stand-in types for utils/storage.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/storage.ts lands.
import { type ThemeMode } from '../config';
import type { StoredUser } from '../client';
import type { MoneyConfig } from '../store/money';
export declare const KEYS: {
  readonly user: 'user';
  readonly token: 'token';
  readonly impersonatorId: 'impersonator_id';
  readonly originalUser: 'original_user';
  readonly originalToken: 'original_token';
  readonly drawer: 'isDashboardDrawerOpened';
  readonly themeMode: 'themeMode';
  readonly money: 'money';
};
type Nullable<T> = {
  [K in keyof T]: T[K] | null;
};
/** The user kept in local storage (spec §3): the API's user fields the shell reads, null when not sent. */
export type SessionUser = Nullable<Pick<StoredUser, 'user_id' | 'role_name' | 'name' | 'balance' | 'timezone'>> & {
  role: number | string | null;
};
/** A user record as a server answer carries it (sign-in, impersonation, a listed user). */
export type ServerUser = Partial<Nullable<Omit<StoredUser, 'role'>>> & {
  id?: number | null;
  role?: number | string | null;
};
export declare function getItem(key: string): string | null;
export declare function setItem(key: string, value: string): void;
export declare function removeItem(key: string): void;
export declare function clearStorage(): void;
/** Reduce a server user record to the stored user shape of spec §3. */
export declare function toStoredUser(user: ServerUser | null | undefined): SessionUser | null;
export declare function getStoredUser(): SessionUser | null;
/** Window event sent when this tab changes the stored user (a saved profile, a new balance). */
export declare const USER_CHANGED = 'callroute:user-changed';
/** Merge fields into the stored user (e.g. a refreshed balance); the shell shows them at once. */
export declare function updateStoredUser(fields: Partial<SessionUser>): void;
export declare function getToken(): string | null;
export declare function setSession(token: string, user: ServerUser | null | undefined): void;
export declare function isImpersonating(): boolean;
export declare function getStoredDrawerOpen(): boolean;
export declare function setStoredDrawerOpen(open: boolean): void;
/** The money settings last read for user `userId` (GET /config), or null. */
export declare function getStoredMoney(userId: number | null | undefined): MoneyConfig | null;
export declare function setStoredMoney(userId: number | null | undefined, money: MoneyConfig): void;
export declare function getStoredThemeMode(): ThemeMode;
export declare function setStoredThemeMode(mode: ThemeMode): void;
export {};
