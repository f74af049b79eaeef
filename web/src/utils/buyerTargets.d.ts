// Stand-in types for utils/buyerTargets.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/buyerTargets.ts lands.
import type { BuyerTarget } from '../client';
import type { ChipColor } from './status';
type CountField = 'calls_this_hour' | 'calls_today' | 'calls_this_month';
type CapField = 'hourly_cap' | 'daily_cap' | 'monthly_cap';
export declare const PERIODS: readonly (readonly [CountField, CapField, string])[];
export interface CapUse {
  text: string;
  percent: number | null;
  full: boolean;
}
export interface Availability {
  label: string;
  color: ChipColor;
}
/**
 * One period's use: `text` ("3 / 10", or "3 (no cap)"), `percent` of the cap (null without one)
 * and `full` once no more calls are taken.
 */
export declare function capUse(used: number | null | undefined, cap: number | null | undefined): CapUse;
/** Whether the target takes calls now, and why not: paused, closed hours, or a cap reached. */
export declare function availability(t: BuyerTarget): Availability;
export {};
