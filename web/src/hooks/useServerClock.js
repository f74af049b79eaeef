import { useEffect, useState } from 'react';
import { fetchServerTime } from '../api/header';
import { clockSkew, formatClock, formatClockDate, safeTimeZone } from '../utils/clock';
import { CLOCK_TICK_MS } from '../config';

/**
 * Clock in the user's timezone: the server time is fetched once, then the clock ticks every
 * second. If the fetch fails the browser clock is used.
 */
export default function useServerClock(timezone, { enabled = true } = {}) {
  const [skew, setSkew] = useState(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!enabled) return undefined;
    let cancelled = false;
    fetchServerTime()
      .then((data) => !cancelled && setSkew(clockSkew(data?.server_time, data?.timezone || 'UTC')))
      .catch((err) => {
        console.error('Server time failed; using the browser clock', err);
        if (!cancelled) setSkew(0);
      });
    return () => {
      cancelled = true;
    };
  }, [enabled]);

  useEffect(() => {
    if (!enabled || skew === null) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, [enabled, skew]);

  const zone = safeTimeZone(timezone);
  if (skew === null) return { ready: false, time: '--:--:-- --', date: '', timezone: zone };
  const at = now + skew;
  return { ready: true, time: formatClock(at, zone), date: formatClockDate(at, zone), timezone: zone };
}
