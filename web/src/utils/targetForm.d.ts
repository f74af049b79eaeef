// Stand-in types for utils/targetForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/targetForm.ts lands.
import type { TargetOut } from '../client';
import { type FieldErrors } from './validation';
export type Day = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
export type CapField = 'concurrency_cap' | 'hourly_cap' | 'daily_cap' | 'monthly_cap';
/** Open hours by weekday: [["09:00", "17:00"], ...]; {} is open around the clock. */
export type Schedule = Partial<Record<string, Array<[string, string]>>>;
export interface TargetForm extends Record<CapField, string> {
  buyer_id: string;
  name: string;
  destination: string;
  trunk_id: string;
  timezone: string;
  payout: string;
  always_open: boolean;
  hours: Record<Day, string>;
  bidding: boolean;
  ping_url: string;
  post_url: string;
  bid_deadline_ms: string;
  min_bid: string;
}
/** Keyed by field, `hours.{day}` for a day's hours, or `hours` for none at all. */
export type TargetErrors = FieldErrors<keyof TargetForm | `hours.${Day}`>;
/** POST /target/add's body (an edit, PUT, sends it without `buyer_id`). */
export interface TargetBody extends Record<CapField, number | null> {
  name: string;
  destination: string;
  trunk_id: number | null;
  timezone: string;
  schedule: Schedule;
  payout: string;
  ping_url: string | null;
  post_url: string | null;
  bid_deadline_ms: number;
  min_bid: string | null;
  buyer_id?: number;
}
export declare const DAYS: readonly (readonly [Day, string])[];
export declare const CAPS: readonly (readonly [CapField, string])[];
export declare const DEADLINE_MS: {
  min: number;
  max: number;
  default: number;
};
export declare function emptyTarget(): TargetForm;
export declare function targetToForm(t: TargetOut): TargetForm;
/** "09:00-12:00, 13:00-17:30" as [["09:00", "12:00"], ["13:00", "17:30"]]; throws a message when not. */
export declare function parseWindows(text: string): Array<[string, string]>;
/** `{field: message}`; hours errors are keyed `hours.{day}`. */
export declare function validateTarget(
  values: TargetForm,
  {
    editing
  }?: {
    editing?: boolean;
  }
): TargetErrors;
/** The request body; an edit never moves a target to another buyer. */
export declare function targetBody(
  values: TargetForm,
  {
    editing
  }?: {
    editing?: boolean;
  }
): TargetBody;
/** One line for the list: "Always open", or "Mon 09:00-17:00; Sat 10:00-14:00". */
export declare function scheduleSummary(schedule: Schedule | null | undefined): string;
/** Caps as a short line: "2 at once, 50/day", or "No caps". */
export declare function capsSummary(t: Pick<TargetOut, CapField>): string;
/** The IANA time zones the browser knows, UTC first. */
export declare function timeZones(): string[];
