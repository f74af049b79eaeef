import { useMemo, useSyncExternalStore } from 'react';
import { KEYS, USER_CHANGED, getItem } from '../utils/storage';

function subscribe(onChange) {
  // USER_CHANGED: this tab saved it; 'storage': another tab did.
  window.addEventListener(USER_CHANGED, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(USER_CHANGED, onChange);
    window.removeEventListener('storage', onChange);
  };
}

const snapshot = () => getItem(KEYS.user);

/** The stored user, re-read when it changes: a new name or timezone shows without a reload. */
export default function useStoredUser() {
  const raw = useSyncExternalStore(subscribe, snapshot, snapshot);
  return useMemo(() => {
    try {
      const user = JSON.parse(raw);
      return user && typeof user === 'object' ? user : null;
    } catch {
      return null;
    }
  }, [raw]);
}
