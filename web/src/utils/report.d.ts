// Stand-in types for utils/report.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/report.ts lands.
import type { CallReportRow, Disposition } from '../client';
import type { ChipColor } from './status';
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
export declare const DISPOSITIONS: readonly Disposition[];
/** Only the filters that are set, trimmed: what goes on the query string. */
export declare function reportParams(filters: ReportFilters | null | undefined): Record<string, string>;
/**
 * How many calls match, as the report says it: exact ("1,234"), or past the server's threshold its
 * estimate, rounded and marked ("about 1.2 M", "about 45 k").
 */
export declare function countLabel(total: number | string | null | undefined, estimated?: boolean): string;
/** A problem the server would refuse, said before asking it. */
export declare function filterProblem(filters: ReportFilters): string;
/** "2026-11-24 14:05:09" in the given time zone. */
export declare function formatDateTime(iso: string | null | undefined, timeZone?: string | null | undefined): string;
export declare function dispositionColor(disposition: string | null | undefined): ChipColor;
/**
 * The chip a call shows: its disposition once the row is final (ended_at set), "in progress"
 * before, since the bridge writes a provisional disposition (FAILED, ANSWERED) while it is up.
 */
export declare function callOutcome(
  call: Pick<CallReportRow, 'ended_at' | 'disposition'> | null | undefined
): CallOutcome;
/** A trail entry's own fields beyond step/at/result/reason, as "key: value" strings. */
export declare function trailDetails(entry: Record<string, unknown> | null | undefined): string[];
/** True when no bucket of a series has a call: the chart says so instead of drawing empty axes. */
export declare function seriesIsEmpty(
  series:
    | readonly {
        calls?: number | null;
        Calls?: number | null;
      }[]
    | null
    | undefined
): boolean;
/** A series bucket's label: the hour ("14:00") for a day's view, the date ("Nov 21") otherwise. */
export declare function bucketLabel(iso: string | null | undefined, hourly: boolean): string;
