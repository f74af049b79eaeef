import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchBalance } from '../api/header';
import { updateStoredUser } from '../utils/storage';
import { onMoneyMoved } from '../store/money';
import { selectBalance, useLive } from '../store/live';

/**
 * Wallet balance of the signed-in customer, read again after anything that moves money. A failed
 * fetch only stops the spinner (spec §8).
 */
export default function useBalance(user, { enabled = true } = {}) {
  const [balance, setBalance] = useState(user?.balance ?? null);
  const [loading, setLoading] = useState(false);
  const alive = useRef(true);

  const refresh = useCallback(async () => {
    if (!enabled || user?.user_id == null) return;
    setLoading(true);
    try {
      const value = await fetchBalance(user.user_id);
      if (alive.current && value !== null && value !== undefined) {
        setBalance(value);
        updateStoredUser({ balance: value });
      }
    } catch {
      // only stop the spinner
    } finally {
      if (alive.current) setLoading(false);
    }
  }, [enabled, user?.user_id]);

  useEffect(() => {
    alive.current = true;
    refresh();
    // Read again whenever a screen moves money, and when the user comes back to the tab.
    const stop = onMoneyMoved(refresh);
    window.addEventListener('focus', refresh);
    return () => {
      alive.current = false;
      stop();
      window.removeEventListener('focus', refresh);
    };
  }, [refresh]);

  // The live feed pushes the balance when money moves without this tab doing it (a call rated).
  const pushed = useLive(selectBalance);
  useEffect(() => {
    if (!enabled || !pushed || pushed.user_id !== user?.user_id) return;
    setBalance(pushed.balance);
    updateStoredUser({ balance: pushed.balance });
  }, [enabled, pushed, user?.user_id]);

  return { balance, loading, refresh };
}
