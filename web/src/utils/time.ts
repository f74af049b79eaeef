// Header clock helpers (spec §2, §4): the server time is fetched once, converted to the
// user's timezone, and shown in 12-hour form with AM/PM.

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/;

export function isValidTimeZone(tz: unknown): tz is string {
  if (!tz || typeof tz !== 'string') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function safeTimeZone(tz: string | null | undefined, fallback = 'UTC'): string {
  return isValidTimeZone(tz) ? tz : fallback;
}

/** Offset (ms) of a timezone from UTC at the given instant. */
function timeZoneOffsetMs(epochMs: number, tz: string): number {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit'
  });
  for (const p of fmt.formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  const n = (type: Intl.DateTimeFormatPartTypes): number => Number(parts[type]);
  const asUtc = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour') % 24, n('minute'), n('second'));
  return asUtc - Math.floor(epochMs / 1000) * 1000;
}

/**
 * Parse the server's "yyyy-MM-dd HH:mm:ss" wall time, read in the server's timezone
 * (UTC unless told otherwise), into epoch milliseconds. ISO strings carrying an offset
 * are honoured as they are. Returns null when unparseable.
 */
export function parseServerTime(serverTime: unknown, serverTimeZone: string | null | undefined = 'UTC'): number | null {
  if (!serverTime || typeof serverTime !== 'string') return null;
  const text = serverTime.trim();
  const m = WALL_TIME.exec(text);
  if (!m) {
    const parsed = Date.parse(text);
    return Number.isNaN(parsed) ? null : parsed;
  }
  const wallAsUtc = Date.UTC(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6] || 0)
  );
  const tz = safeTimeZone(serverTimeZone);
  if (tz === 'UTC' || tz === 'Etc/UTC') return wallAsUtc;
  // Two passes settle the offset around DST changes.
  let guess = wallAsUtc - timeZoneOffsetMs(wallAsUtc, tz);
  guess = wallAsUtc - timeZoneOffsetMs(guess, tz);
  return guess;
}

const clockFormatters = new Map<string, Intl.DateTimeFormat>();
function clockFormatter(tz: string): Intl.DateTimeFormat {
  let formatter = clockFormatters.get(tz);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hour12: true
    });
    clockFormatters.set(tz, formatter);
  }
  return formatter;
}

/** "hh:mm:ss AM" in the given timezone (UTC when the timezone is unknown). */
export function formatClock(epochMs: number, tz: string | null | undefined): string {
  const zone = safeTimeZone(tz);
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of clockFormatter(zone).formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  const hour = String(parts.hour).padStart(2, '0');
  return `${hour}:${parts.minute}:${parts.second} ${String(parts.dayPeriod).toUpperCase()}`;
}

/** "Mon, 21 Nov 2026" in the given timezone. */
export function formatClockDate(epochMs: number, tz: string | null | undefined): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: safeTimeZone(tz),
    weekday: 'short',
    day: '2-digit',
    month: 'short',
    year: 'numeric'
  }).format(new Date(epochMs));
}

/** Difference between the server clock and this browser's clock, in ms. */
export function clockSkew(
  serverTime: unknown,
  serverTimeZone: string | null | undefined,
  nowMs: number = Date.now()
): number {
  const server = parseServerTime(serverTime, serverTimeZone);
  return server === null ? 0 : server - nowMs;
}

export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function timeZoneList(): string[] {
  try {
    const zones = Intl.supportedValuesOf('timeZone');
    return zones.includes('UTC') ? zones : ['UTC', ...zones];
  } catch {
    return ['UTC'];
  }
}

/** "Nov 25, 3:04 PM" in the given time zone ('' for no value). */
export function formatShortDateTime(value: string | null | undefined, tz: string | null | undefined): string {
  if (!value) return '';
  const t = Date.parse(value);
  if (Number.isNaN(t)) return String(value);
  return new Date(t).toLocaleString('en-US', {
    timeZone: safeTimeZone(tz),
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit'
  });
}

/** Seconds as "m:ss" ("h:mm:ss" past an hour). */
export function formatSeconds(seconds: number | string | null | undefined): string {
  const total = Math.max(0, Math.floor(Number(seconds) || 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
