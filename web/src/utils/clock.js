// Header clock helpers (spec §2, §4): the server time is fetched once, converted to the
// user's timezone, and shown in 12-hour form with AM/PM.

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/;

export function isValidTimeZone(tz) {
  if (!tz || typeof tz !== 'string') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function safeTimeZone(tz, fallback = 'UTC') {
  return isValidTimeZone(tz) ? tz : fallback;
}

/** Offset (ms) of a timezone from UTC at the given instant. */
function timeZoneOffsetMs(epochMs, tz) {
  const parts = {};
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
  const asUtc = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour % 24, +parts.minute, +parts.second);
  return asUtc - Math.floor(epochMs / 1000) * 1000;
}

/**
 * Parse the server's "yyyy-MM-dd HH:mm:ss" wall time, read in the server's timezone
 * (UTC unless told otherwise), into epoch milliseconds. ISO strings carrying an offset
 * are honoured as they are. Returns null when unparseable.
 */
export function parseServerTime(serverTime, serverTimeZone = 'UTC') {
  if (!serverTime || typeof serverTime !== 'string') return null;
  const text = serverTime.trim();
  const m = WALL_TIME.exec(text);
  if (!m) {
    const parsed = Date.parse(text);
    return Number.isNaN(parsed) ? null : parsed;
  }
  const wallAsUtc = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] || 0));
  const tz = safeTimeZone(serverTimeZone);
  if (tz === 'UTC' || tz === 'Etc/UTC') return wallAsUtc;
  // Two passes settle the offset around DST changes.
  let guess = wallAsUtc - timeZoneOffsetMs(wallAsUtc, tz);
  guess = wallAsUtc - timeZoneOffsetMs(guess, tz);
  return guess;
}

const clockFormatters = new Map();
function clockFormatter(tz) {
  if (!clockFormatters.has(tz)) {
    clockFormatters.set(
      tz,
      new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hour12: true
      })
    );
  }
  return clockFormatters.get(tz);
}

/** "hh:mm:ss AM" in the given timezone (UTC when the timezone is unknown). */
export function formatClock(epochMs, tz) {
  const zone = safeTimeZone(tz);
  const parts = {};
  for (const p of clockFormatter(zone).formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  const hour = String(parts.hour).padStart(2, '0');
  return `${hour}:${parts.minute}:${parts.second} ${String(parts.dayPeriod).toUpperCase()}`;
}

/** "Mon, 21 Nov 2026" in the given timezone. */
export function formatClockDate(epochMs, tz) {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: safeTimeZone(tz),
    weekday: 'short',
    day: '2-digit',
    month: 'short',
    year: 'numeric'
  }).format(new Date(epochMs));
}

/** Difference between the server clock and this browser's clock, in ms. */
export function clockSkew(serverTime, serverTimeZone, nowMs = Date.now()) {
  const server = parseServerTime(serverTime, serverTimeZone);
  return server === null ? 0 : server - nowMs;
}

export function browserTimeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function timeZoneList() {
  try {
    const zones = Intl.supportedValuesOf('timeZone');
    return zones.includes('UTC') ? zones : ['UTC', ...zones];
  } catch {
    return ['UTC'];
  }
}

/** Seconds as "m:ss" ("h:mm:ss" past an hour). */
/** "Nov 25, 3:04 PM" in the given time zone ('' for no value). */
export function formatShortDateTime(value, tz) {
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

export function formatSeconds(seconds) {
  const total = Math.max(0, Math.floor(Number(seconds) || 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
