import { describe, expect, it } from 'vitest';
import {
  clockSkew,
  formatClock,
  formatDate,
  formatDateTime,
  formatTimeOfDay,
  isIsoDate,
  timeColumn,
  timeZoneList,
  zoneAbbreviation,
  isValidTimeZone,
  parseServerTime,
  safeTimeZone
} from '../utils/time';

const at = (iso: string): number => Date.parse(iso);

describe('server time parsing', () => {
  it('reads "yyyy-MM-dd HH:mm:ss" as UTC wall time', () => {
    expect(parseServerTime('2026-01-15 13:04:05', 'UTC')).toBe(at('2026-01-15T13:04:05Z'));
    expect(parseServerTime('2026-01-15 13:04:05')).toBe(at('2026-01-15T13:04:05Z'));
  });

  it('reads wall time in a non-UTC server timezone', () => {
    expect(parseServerTime('2026-01-15 08:04:05', 'America/New_York')).toBe(at('2026-01-15T13:04:05Z'));
    expect(parseServerTime('2026-07-15 09:04:05', 'America/New_York')).toBe(at('2026-07-15T13:04:05Z'));
    expect(parseServerTime('2026-01-15 18:34:05', 'Asia/Kolkata')).toBe(at('2026-01-15T13:04:05Z'));
  });

  it('honours ISO strings with an offset and rejects garbage', () => {
    expect(parseServerTime('2026-01-15T13:04:05+02:00')).toBe(at('2026-01-15T11:04:05Z'));
    expect(parseServerTime('not a time')).toBeNull();
    expect(parseServerTime('')).toBeNull();
    expect(parseServerTime(null)).toBeNull();
  });

  it('computes the skew between server and browser clocks', () => {
    const now = at('2026-01-15T13:00:00Z');
    expect(clockSkew('2026-01-15 13:00:30', 'UTC', now)).toBe(30000);
    expect(clockSkew('garbage', 'UTC', now)).toBe(0);
  });
});

describe('clock formatting across timezones (12-hour, AM/PM)', () => {
  const t = at('2026-01-15T13:04:05Z');

  it('formats in the user timezone', () => {
    expect(formatClock(t, 'UTC')).toBe('01:04:05 PM');
    expect(formatClock(t, 'America/New_York')).toBe('08:04:05 AM'); // EST, UTC-5
    expect(formatClock(t, 'Asia/Kolkata')).toBe('06:34:05 PM'); // UTC+5:30
    expect(formatClock(t, 'Asia/Tokyo')).toBe('10:04:05 PM');
    expect(formatClock(t, 'Pacific/Auckland')).toBe('02:04:05 AM'); // NZDT, UTC+13, next day
  });

  it('follows daylight saving time', () => {
    expect(formatClock(at('2026-07-15T13:04:05Z'), 'America/New_York')).toBe('09:04:05 AM');
    expect(formatClock(at('2026-07-15T13:04:05Z'), 'Europe/London')).toBe('02:04:05 PM');
  });

  it('shows midnight and noon as 12', () => {
    expect(formatClock(at('2026-01-15T00:00:00Z'), 'UTC')).toBe('12:00:00 AM');
    expect(formatClock(at('2026-01-15T12:00:00Z'), 'UTC')).toBe('12:00:00 PM');
  });

  it('falls back to UTC for an unknown timezone', () => {
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(safeTimeZone('Mars/Olympus')).toBe('UTC');
    expect(formatClock(t, 'Mars/Olympus')).toBe('01:04:05 PM');
    expect(formatClock(t, null)).toBe('01:04:05 PM');
  });

  it('formats the date in the user timezone', () => {
    expect(formatDate(t, 'Pacific/Auckland')).toBe('2026-01-16');
    expect(formatDate(t, 'UTC')).toBe('2026-01-15');
  });
});

describe('one date and time format, the zone named', () => {
  it('writes every time as "yyyy-MM-dd HH:mm" in the user zone', () => {
    expect(formatDateTime('2026-11-20T23:30:09+00:00', 'Europe/Berlin')).toBe('2026-11-21 00:30');
    expect(formatDateTime('2026-11-20T23:30:09Z', 'Europe/Berlin', { seconds: true })).toBe('2026-11-21 00:30:09');
    expect(formatDateTime('2026-11-20T23:30:09Z', 'Not/AZone')).toBe('2026-11-20 23:30');
    expect(formatDateTime('2026-07-01T12:00:00Z', 'America/New_York', { zone: true })).toBe('2026-07-01 08:00 EDT');
    expect(formatDateTime(null)).toBe('—');
    expect(formatTimeOfDay('2026-11-20T23:30:09Z', 'Europe/Berlin')).toBe('00:30:09');
    expect(formatTimeOfDay(null)).toBe('');
  });

  it('names the zone as people say it, winter and summer', () => {
    const winter = Date.parse('2026-01-15T12:00:00Z');
    const summer = Date.parse('2026-07-15T12:00:00Z');
    expect(zoneAbbreviation('Europe/Berlin', winter)).toBe('CET');
    expect(zoneAbbreviation('Europe/Berlin', summer)).toBe('CEST');
    expect(zoneAbbreviation('America/Chicago', winter)).toBe('CST');
    expect(zoneAbbreviation('Europe/London', winter)).toBe('GMT');
    expect(zoneAbbreviation('UTC', winter)).toBe('UTC');
    expect(zoneAbbreviation('Asia/Kolkata', winter)).toMatch(/^(IST|GMT\+5:30)$/);
    expect(timeColumn('Started', 'UTC')).toBe('Started (UTC)');
  });

  it('reads typed dates only as YYYY-MM-DD, and real days', () => {
    expect(isIsoDate('2026-11-27')).toBe(true);
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('11/27/2026')).toBe(false);
    expect(isIsoDate('2026-1-5')).toBe(false);
  });

  it('offers UTC first, then the zones the browser knows', () => {
    const zones = timeZoneList();
    expect(zones[0]).toBe('UTC');
    expect(zones).toContain('Europe/Berlin');
    expect(zones.filter((z) => z === 'UTC')).toHaveLength(1);
  });
});
