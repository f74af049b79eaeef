// Stand-in types for utils/clock.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/clock.ts lands.
export declare function isValidTimeZone(tz: unknown): tz is string;
export declare function safeTimeZone(tz: string | null | undefined, fallback?: string): string;
/**
 * Parse the server's "yyyy-MM-dd HH:mm:ss" wall time, read in the server's timezone
 * (UTC unless told otherwise), into epoch milliseconds. ISO strings carrying an offset
 * are honoured as they are. Returns null when unparseable.
 */
export declare function parseServerTime(serverTime: unknown, serverTimeZone?: string | null | undefined): number | null;
/** "hh:mm:ss AM" in the given timezone (UTC when the timezone is unknown). */
export declare function formatClock(epochMs: number, tz: string | null | undefined): string;
/** "Mon, 21 Nov 2026" in the given timezone. */
export declare function formatClockDate(epochMs: number, tz: string | null | undefined): string;
/** Difference between the server clock and this browser's clock, in ms. */
export declare function clockSkew(
  serverTime: unknown,
  serverTimeZone: string | null | undefined,
  nowMs?: number
): number;
export declare function browserTimeZone(): string;
export declare function timeZoneList(): string[];
/** "Nov 25, 3:04 PM" in the given time zone ('' for no value). */
export declare function formatShortDateTime(value: string | null | undefined, tz: string | null | undefined): string;
/** Seconds as "m:ss" ("h:mm:ss" past an hour). */
export declare function formatSeconds(seconds: number | string | null | undefined): string;
