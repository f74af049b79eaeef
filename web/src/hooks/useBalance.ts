import { useCallback, useEffect, useState } from 'react';
import { call } from '../api/client';
import { accountBalance } from '../client';
import { updateStoredUser } from '../utils/storage';
import { onMoneyMoved } from '../store/money';
import { selectBalance, useLive } from '../store/live';
import type { SessionUser } from './useStoredUser';

type Amount = SessionUser['balance'];

/** Balance of one user: the first row of the answer carries `balance`. */
async function fetchBalance(userId: number): Promise<Amount | null> {
  const rows = await call(accountBalance({ path: { user_id: userId } }));
  return rows[0]?.balance ?? null;
}

/**
 * Wallet balance of the signed-in customer, read again after anything that moves money. A failed
 * fetch only stops the spinner (spec §8).
 */
export default function useBalance(
  user: Pick<SessionUser, 'user_id' | 'balance'> | null | undefined,
  { enabled = true }: { enabled?: boolean } = {}
) {
  const userId = user?.user_id;
  const [balance, setBalance] = useState<Amount | null>(user?.balance ?? null);
  // Loading from the start when there is a balance to read: the first read is under way.
  const [loading, setLoading] = useState(() => enabled && userId != null);

  /** Read the balance again; `wanted()` tells whether its answer is still wanted. */
  const read = useCallback(
    (wanted: () => boolean): Promise<void> => {
      if (!enabled || userId == null) return Promise.resolve();
      return fetchBalance(userId)
        .then(
          (value) => {
            if (!wanted() || value === null || value === undefined) return;
            setBalance(value);
            updateStoredUser({ balance: value });
          },
          () => undefined // only stop the spinner
        )
        .finally(() => wanted() && setLoading(false));
    },
    [enabled, userId]
  );

  useEffect(() => {
    let alive = true;
    const wanted = () => alive;
    const refresh = () => {
      setLoading(true);
      void read(wanted);
    };
    void read(wanted);
    // Read again whenever a screen moves money, and when the user comes back to the tab.
    const stop = onMoneyMoved(refresh);
    window.addEventListener('focus', refresh);
    return () => {
      alive = false;
      stop();
      window.removeEventListener('focus', refresh);
    };
  }, [read]);

  const refresh = useCallback(() => {
    setLoading(true);
    return read(() => true);
  }, [read]);

  // The live feed pushes the balance when money moves without this tab doing it (a call rated):
  // shown as it arrives (state adjusted while rendering), and kept in local storage.
  const pushed = useLive(selectBalance);
  const [seenPush, setSeenPush] = useState(pushed);
  const ownPush = enabled && pushed && pushed.user_id === userId ? pushed : null;
  if (pushed !== seenPush) {
    setSeenPush(pushed);
    if (ownPush) setBalance(ownPush.balance);
  }
  useEffect(() => {
    if (ownPush) updateStoredUser({ balance: ownPush.balance });
  }, [ownPush]);

  return { balance, loading, refresh };
}
