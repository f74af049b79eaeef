// The call report's filters and cells.
import type { CallReportRow, Disposition } from '../client';
import type { ChipColor } from './status';
import { isIsoDate } from './time';

/** The report's filters as typed (dates as YYYY-MM-DD). */
export interface ReportFilters {
  fromDate?: string;
  toDate?: string;
  caller_country?: string;
  caller_region?: string;
  [filter: string]: string | number | null | undefined;
}

export interface CallOutcome {
  label: string;
  color: ChipColor;
  final: boolean;
}

export const DISPOSITIONS: readonly Disposition[] = [
  'ANSWERED',
  'NO ANSWER',
  'BUSY',
  'FAILED',
  'NO_ROUTE',
  'BLOCKED',
  'NO_BALANCE',
  'DUPLICATE',
  'IVR_FAILED'
];

/** Only the filters that are set, trimmed: what goes on the query string. */
export function reportParams(filters: ReportFilters | null | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters ?? {})) {
    const text = String(value ?? '').trim();
    if (text) params[key] = text;
  }
  return params;
}

/**
 * How many calls match, as the report says it: exact ("1,234"), or past the server's threshold its
 * estimate, rounded and marked ("about 1.2 M", "about 45 k").
 */
export function countLabel(total: number | string | null | undefined, estimated = false): string {
  const n = Number(total ?? 0);
  if (!estimated) return n.toLocaleString('en-US');
  if (n >= 1e6) return `about ${(n / 1e6).toFixed(1).replace(/\.0$/, '')} M`;
  if (n >= 1e3) return `about ${Math.round(n / 1e3)} k`;
  return `about ${n}`;
}

/** A problem the server would refuse, said before asking it. */
export function filterProblem(filters: ReportFilters): string {
  for (const day of [filters.fromDate, filters.toDate])
    if (day && !isIsoDate(day)) return `Write dates as YYYY-MM-DD, e.g. 2026-11-27 (not ${day}).`;
  if (filters.fromDate && filters.toDate && filters.fromDate > filters.toDate)
    return 'The end date is before the start date.';
  if (String(filters.caller_region ?? '').trim() && !String(filters.caller_country ?? '').trim())
    return 'A caller region is named within its country: give the country too (e.g. US).';
  return '';
}

export function dispositionColor(disposition: string | null | undefined): ChipColor {
  if (disposition === 'ANSWERED') return 'success';
  if (disposition === 'NO ANSWER' || disposition === 'BUSY') return 'warning';
  if (disposition === 'BLOCKED' || disposition === 'NO_BALANCE' || disposition === 'FAILED') return 'error';
  return 'default';
}

/**
 * The chip a call shows: its disposition once the row is final (ended_at set), "in progress"
 * before, since the bridge writes a provisional disposition (FAILED, ANSWERED) while it is up.
 */
export function callOutcome(
  call: (Pick<CallReportRow, 'disposition'> & Partial<Pick<CallReportRow, 'ended_at'>>) | null | undefined
): CallOutcome {
  if (!call?.ended_at) return { label: 'in progress', color: 'info', final: false };
  return { label: call.disposition, color: dispositionColor(call.disposition), final: true };
}

const TRAIL_KEYS = new Set(['step', 'at', 'result', 'reason']);

/** A trail entry's own fields beyond step/at/result/reason, as "key: value" strings. */
export function trailDetails(entry: Record<string, unknown> | null | undefined): string[] {
  return Object.entries(entry ?? {})
    .filter(([key, value]) => !TRAIL_KEYS.has(key) && value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
}

/** True when no bucket of a series has a call: the chart says so instead of drawing empty axes. */
export function seriesIsEmpty(
  series: readonly { calls?: number | null; Calls?: number | null; [label: string]: unknown }[] | null | undefined
): boolean {
  return !(series ?? []).some((b) => Number(b.calls ?? b.Calls ?? 0) > 0);
}

/** A series bucket's label: the hour ("14:00") for a day's view, the date ("Nov 21") otherwise. */
export function bucketLabel(iso: string | null | undefined, hourly: boolean): string {
  const text = String(iso ?? '');
  if (hourly) return text.slice(11, 16);
  const [, month, day] = text.slice(0, 10).split('-').map(Number);
  const names = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return month ? `${names[month - 1]} ${day}` : text;
}
