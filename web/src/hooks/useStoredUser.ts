import { useMemo, useSyncExternalStore } from 'react';
import type { StoredUser } from '../client';
import { KEYS, USER_CHANGED, getItem } from '../utils/storage';

type Nullable<T> = { [K in keyof T]: T[K] | null };

/**
 * The signed-in user as local storage keeps it (spec §3): the fields utils/storage's toStoredUser
 * keeps, null when not sent. (The same shape as utils/storage's SessionUser once that is typed.)
 */
export type SessionUser = Nullable<Pick<StoredUser, 'user_id' | 'role_name' | 'name' | 'balance' | 'timezone'>> & {
  role: number | string | null;
};

function subscribe(onChange: () => void): () => void {
  // USER_CHANGED: this tab saved it; 'storage': another tab did.
  window.addEventListener(USER_CHANGED, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(USER_CHANGED, onChange);
    window.removeEventListener('storage', onChange);
  };
}

const snapshot = (): string | null => getItem(KEYS.user);

/** The stored user, re-read when it changes: a new name or timezone shows without a reload. */
export default function useStoredUser(): SessionUser | null {
  const raw = useSyncExternalStore(subscribe, snapshot, snapshot);
  return useMemo(() => {
    if (raw === null) return null;
    try {
      const user: unknown = JSON.parse(raw);
      // JSON from local storage: written by utils/storage's setSession in this shape.
      return user && typeof user === 'object' ? (user as SessionUser) : null;
    } catch {
      return null;
    }
  }, [raw]);
}
