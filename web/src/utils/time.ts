// Every time a person reads or types, in one format: "2026-11-27 14:05" in the user's time zone,
// the zone named beside it ("CET"); dates as "2026-11-27". And the header clock (spec §2, §4):
// the server time fetched once, converted to the user's zone, in 12-hour form with AM/PM.

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

/** The IANA time zones the browser knows, UTC first. */
export function timeZoneList(): string[] {
  try {
    return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
  } catch {
    return ['UTC'];
  }
}

const wallFormatters = new Map<string, Intl.DateTimeFormat>();
function wallParts(ms: number, zone: string): Record<string, string> {
  let formatter = wallFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23'
    });
    wallFormatters.set(zone, formatter);
  }
  return Object.fromEntries(formatter.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
}

/**
 * The zone's short name at an instant, as people say it: "CET", "EST", "UTC"; the offset
 * ("GMT+5:30") for a zone without a common abbreviation.
 */
export function zoneAbbreviation(tz: string | null | undefined, atMs: number = Date.now()): string {
  const zone = safeTimeZone(tz);
  const name = (locale: string) =>
    new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' })
      .formatToParts(new Date(atMs))
      .find((p) => p.type === 'timeZoneName')?.value ?? 'UTC';
  // en-US names American zones (EST) and gives offsets elsewhere; en-GB names European ones (CET).
  const us = name('en-US');
  if (!us.startsWith('GMT') && !us.startsWith('UTC')) return us;
  const gb = name('en-GB');
  return gb === 'GMT' && us !== 'GMT' ? us : gb;
}

export interface DateTimeOptions {
  /** Add the seconds ("14:05:09"): a call's own times, its trail. */
  seconds?: boolean;
  /** Name the zone after the time ("14:05 CET"): where no column header says it. */
  zone?: boolean;
}

/** "2026-11-27 14:05" in the given zone (UTC when unknown); "—" for no time. */
export function formatDateTime(
  value: string | number | null | undefined,
  tz: string | null | undefined = 'UTC',
  { seconds = false, zone = false }: DateTimeOptions = {}
): string {
  const ms = typeof value === 'number' ? value : Date.parse(value ?? '');
  if (Number.isNaN(ms)) return '—';
  const p = wallParts(ms, safeTimeZone(tz));
  const time = `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}${seconds ? `:${p.second}` : ''}`;
  return zone ? `${time} ${zoneAbbreviation(tz, ms)}` : time;
}

/** "2026-11-27": the day in the given zone; "—" for no time. */
export function formatDate(value: string | number | null | undefined, tz: string | null | undefined = 'UTC'): string {
  const text = formatDateTime(value, tz);
  return text === '—' ? text : text.slice(0, 10);
}

/** "14:05:09": the time of day in the given zone (a call's steps); '' for no time. */
export function formatTimeOfDay(value: string | null | undefined, tz: string | null | undefined = 'UTC'): string {
  const text = formatDateTime(value, tz, { seconds: true });
  return text === '—' ? '' : text.slice(11);
}

/** A column header for times: "Started (CET)", so each cell is the plain "2026-11-27 14:05". */
export function timeColumn(label: string, tz: string | null | undefined): string {
  return `${label} (${zoneAbbreviation(tz)})`;
}

/** A typed date as the portal writes them, "YYYY-MM-DD", and a real day. */
export function isIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** Seconds as "m:ss" ("h:mm:ss" past an hour). */
export function formatSeconds(seconds: number | string | null | undefined): string {
  const total = Math.max(0, Math.floor(Number(seconds) || 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
