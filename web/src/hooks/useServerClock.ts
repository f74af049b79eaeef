import { useEffect, useState } from 'react';
import { call } from '../api/client';
import { accountServerTime } from '../client';
import { clockSkew, formatClock, formatDate, safeTimeZone, zoneAbbreviation } from '../utils/time';
import { CLOCK_TICK_MS } from '../config';

export interface ServerClock {
  ready: boolean;
  time: string;
  date: string;
  timezone: string;
  /** The zone's short name now ("CET"). */
  abbreviation: string;
}

/**
 * Clock in the user's timezone: the server time is fetched once, then the clock ticks every
 * second. If the fetch fails the browser clock is used.
 */
export default function useServerClock(
  timezone: string | null | undefined,
  { enabled = true }: { enabled?: boolean } = {}
): ServerClock {
  const [skew, setSkew] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!enabled) return undefined;
    let cancelled = false;
    call(accountServerTime())
      .then((data) => {
        if (cancelled) return;
        // The first tick is now: the clock shows the server's time at once, not a second late.
        setNow(Date.now());
        setSkew(clockSkew(data?.server_time, data?.timezone || 'UTC'));
      })
      .catch((err: unknown) => {
        console.error('Server time failed; using the browser clock', err);
        if (cancelled) return;
        setNow(Date.now());
        setSkew(0);
      });
    return () => {
      cancelled = true;
    };
  }, [enabled]);

  useEffect(() => {
    if (!enabled || skew === null) return undefined;
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, [enabled, skew]);

  const zone: string = safeTimeZone(timezone);
  if (skew === null) return { ready: false, time: '--:--:-- --', date: '', timezone: zone, abbreviation: '' };
  const at = now + skew;
  const abbreviation = zoneAbbreviation(zone, at);
  return { ready: true, time: formatClock(at, zone), date: formatDate(at, zone), timezone: zone, abbreviation };
}
