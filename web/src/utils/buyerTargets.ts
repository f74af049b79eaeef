// The buyer's targets (GET /buyer/target): each period's calls against its cap, as the routing
// counts them (calls connected since the hour, day or month began in the target's zone).
import type { BuyerTarget } from '../client';
import type { ChipColor } from './status';

type CountField = 'calls_this_hour' | 'calls_today' | 'calls_this_month';
type CapField = 'hourly_cap' | 'daily_cap' | 'monthly_cap';

export const PERIODS: readonly (readonly [CountField, CapField, string])[] = [
  ['calls_this_hour', 'hourly_cap', 'This hour'],
  ['calls_today', 'daily_cap', 'Today'],
  ['calls_this_month', 'monthly_cap', 'This month']
];

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
export function capUse(used: number | null | undefined, cap: number | null | undefined): CapUse {
  const n = Number(used ?? 0);
  if (cap === null || cap === undefined) return { text: `${n} (no cap)`, percent: null, full: false };
  const c = Number(cap);
  return { text: `${n} / ${c}`, percent: c > 0 ? Math.min(100, Math.round((n / c) * 100)) : 100, full: n >= c };
}

/** Whether the target takes calls now, and why not: paused, closed hours, or a cap reached. */
export function availability(t: Pick<BuyerTarget, 'status' | 'open_now' | CountField | CapField>): Availability {
  if (t.status !== 'active') return { label: 'Paused', color: 'default' };
  if (!t.open_now) return { label: 'Closed now', color: 'warning' };
  const full = PERIODS.find(([used, cap]) => capUse(t[used], t[cap]).full);
  if (full) return { label: `${full[2]}'s cap reached`, color: 'error' };
  return { label: 'Taking calls', color: 'success' };
}
