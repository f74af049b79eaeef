// The target dialog's values <-> the API's target body (portal_api/schemas/targets.py): caps
// left empty mean no limit; open hours are typed per weekday as "09:00-12:00, 13:00-17:30"; a
// real-time bidder has a ping URL, an optional post URL, a deadline and a minimum bid (docs/bidding.md).

import type { TargetOut } from '../client';
import { type FieldErrors, thrownMessage } from './validation';

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
  timezone?: string;
  schedule: Schedule;
  payout: string;
  ping_url: string | null;
  post_url: string | null;
  bid_deadline_ms: number;
  min_bid: string | null;
  buyer_id?: number;
}

export const DAYS: readonly (readonly [Day, string])[] = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday']
];
export const CAPS: readonly (readonly [CapField, string])[] = [
  ['concurrency_cap', 'Live calls at once'],
  ['hourly_cap', 'Calls per hour'],
  ['daily_cap', 'Calls per day'],
  ['monthly_cap', 'Calls per month']
];
const MAX_CAP = 1000000;
const BID_URL = /^https?:\/\/[^\s/@]+(\/\S*)?$/i;
const AMOUNT = /^\d+(\.\d{1,4})?$/;
export const DEADLINE_MS = { min: 50, max: 5000, default: 300 };
const WINDOW = /^(\d{1,2}):(\d{2})\s*[-–]\s*(\d{1,2}):(\d{2})$/;

const noHours = (): Record<Day, string> => ({ mon: '', tue: '', wed: '', thu: '', fri: '', sat: '', sun: '' });
const noCaps = (): Record<CapField, string> => ({
  concurrency_cap: '',
  hourly_cap: '',
  daily_cap: '',
  monthly_cap: ''
});
const isDay = (day: string): day is Day => DAYS.some(([known]) => known === day);

/** A new target's form; its zone is the account's (empty: the API takes the customer's). */
export function emptyTarget(timezone = ''): TargetForm {
  return {
    buyer_id: '',
    name: '',
    destination: '',
    trunk_id: '',
    ...noCaps(),
    timezone,
    payout: '0',
    always_open: true,
    hours: noHours(),
    bidding: false,
    ping_url: '',
    post_url: '',
    bid_deadline_ms: String(DEADLINE_MS.default),
    min_bid: ''
  };
}

const windowsText = (windows: ReadonlyArray<readonly [string, string]>): string =>
  windows.map(([start, end]) => `${start}-${end}`).join(', ');

/** The fields of a listed target the dialog edits. */
export type EditedTarget = Pick<
  TargetOut,
  'buyer_id' | 'name' | 'destination' | 'trunk_id' | CapField | 'timezone' | 'payout' | 'schedule'
> &
  Partial<Pick<TargetOut, 'ping_url' | 'post_url' | 'bid_deadline_ms' | 'min_bid'>>;

export function targetToForm(t: EditedTarget): TargetForm {
  const schedule: Schedule = t.schedule ?? {};
  const hours = noHours();
  for (const [day, windows] of Object.entries(schedule)) if (isDay(day) && windows) hours[day] = windowsText(windows);
  const caps = noCaps();
  for (const [cap] of CAPS) caps[cap] = t[cap] === null || t[cap] === undefined ? '' : String(t[cap]);
  return {
    buyer_id: String(t.buyer_id),
    name: t.name,
    destination: t.destination,
    trunk_id: t.trunk_id ? String(t.trunk_id) : '',
    ...caps,
    timezone: t.timezone,
    payout: String(Number(t.payout)),
    always_open: Object.keys(schedule).length === 0,
    hours,
    bidding: Boolean(t.ping_url),
    ping_url: t.ping_url ?? '',
    post_url: t.post_url ?? '',
    bid_deadline_ms: String(t.bid_deadline_ms ?? DEADLINE_MS.default),
    min_bid: t.min_bid === null || t.min_bid === undefined ? '' : String(Number(t.min_bid))
  };
}

const pad = (hh: string, mm: string): string => `${hh.padStart(2, '0')}:${mm}`;

/** "09:00-12:00, 13:00-17:30" as [["09:00", "12:00"], ["13:00", "17:30"]]; throws a message when not. */
export function parseWindows(text: string): Array<[string, string]> {
  const parts = String(text)
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const windows = parts.map((part): [string, string] => {
    const m = WINDOW.exec(part);
    if (!m) throw new Error(`"${part}" is not a window like 09:00-17:00`);
    const [start, end] = [pad(m[1] ?? '', m[2] ?? ''), pad(m[3] ?? '', m[4] ?? '')];
    for (const t of [start, end]) {
      const [hh = 0, mm = 0] = t.split(':').map(Number);
      if (mm > 59 || hh > 24 || (hh === 24 && mm > 0)) throw new Error(`${t} is not a time of day`);
    }
    if (start >= end) throw new Error(`${start}-${end} must start before it ends`);
    return [start, end];
  });
  windows.sort();
  windows.forEach(([start], i) => {
    const before = windows[i - 1];
    if (before && start < before[1]) throw new Error('Windows overlap');
  });
  return windows;
}

/** The schedule to send: {} when open around the clock, else the days with hours. */
function scheduleOf(values: TargetForm): Schedule {
  if (values.always_open) return {};
  const schedule: Schedule = {};
  for (const [day] of DAYS) {
    const windows = parseWindows(values.hours[day]);
    if (windows.length) schedule[day] = windows;
  }
  return schedule;
}

/** `{field: message}`; hours errors are keyed `hours.{day}`. */
export function validateTarget(values: TargetForm, { editing = false }: { editing?: boolean } = {}): TargetErrors {
  const errors: TargetErrors = {};
  if (!editing && !values.buyer_id) errors.buyer_id = 'Buyer is required';
  if (!values.name.trim()) errors.name = 'Name is required';
  if (!values.destination.trim()) errors.destination = 'Destination is required';
  for (const [cap, label] of CAPS) {
    const v = String(values[cap]).trim();
    if (v && (!/^\d+$/.test(v) || Number(v) > MAX_CAP))
      errors[cap] = `${label}: a whole number up to ${MAX_CAP}, or empty for no limit`;
  }
  if (!AMOUNT.test(String(values.payout).trim())) errors.payout = 'Payout must be an amount like 12.50';
  if (values.bidding) Object.assign(errors, biddingErrors(values));
  if (!values.always_open) {
    let open = false;
    for (const [day] of DAYS) {
      try {
        open = parseWindows(values.hours[day]).length > 0 || open;
      } catch (err) {
        errors[`hours.${day}`] = thrownMessage(err);
      }
    }
    if (!open && !Object.keys(errors).some((k) => k.startsWith('hours.')))
      errors.hours = 'Give the open hours of at least one day, or choose open around the clock';
  }
  return errors;
}

/** What is wrong with a bidder's settings, as the server would say it. */
function biddingErrors(values: TargetForm): TargetErrors {
  const errors: TargetErrors = {};
  const url = (v: string): boolean => BID_URL.test(String(v).trim());
  if (!String(values.ping_url).trim()) errors.ping_url = 'A bidder needs the URL it is asked for bids at';
  else if (!url(values.ping_url)) errors.ping_url = 'Ping URL must be an http:// or https:// URL';
  if (String(values.post_url).trim() && !url(values.post_url))
    errors.post_url = 'Post URL must be an http:// or https:// URL, or empty';
  const deadline = String(values.bid_deadline_ms).trim();
  if (!/^\d+$/.test(deadline) || Number(deadline) < DEADLINE_MS.min || Number(deadline) > DEADLINE_MS.max) {
    errors.bid_deadline_ms = `Bid deadline: whole milliseconds from ${DEADLINE_MS.min} to ${DEADLINE_MS.max}`;
  }
  const minimum = String(values.min_bid).trim();
  if (minimum && !AMOUNT.test(minimum)) errors.min_bid = 'Minimum bid must be an amount like 2.50, or empty';
  return errors;
}

/** The bidding part of the body: all null (and the deadline kept) for a target that does not bid. */
function biddingBody(values: TargetForm): Pick<TargetBody, 'ping_url' | 'post_url' | 'bid_deadline_ms' | 'min_bid'> {
  const text = (v: string): string | null => String(v).trim() || null;
  const bidding = values.bidding;
  return {
    ping_url: bidding ? text(values.ping_url) : null,
    post_url: bidding ? text(values.post_url) : null,
    bid_deadline_ms: bidding ? Number(String(values.bid_deadline_ms).trim()) : DEADLINE_MS.default,
    min_bid: bidding ? text(values.min_bid) : null
  };
}

/** The request body; an edit never moves a target to another buyer. */
export function targetBody(values: TargetForm, { editing = false }: { editing?: boolean } = {}): TargetBody {
  const cap = (name: CapField): number | null => (String(values[name]).trim() === '' ? null : Number(values[name]));
  const body: TargetBody = {
    name: values.name.trim(),
    destination: values.destination.trim(),
    trunk_id: values.trunk_id ? Number(values.trunk_id) : null,
    concurrency_cap: cap('concurrency_cap'),
    hourly_cap: cap('hourly_cap'),
    daily_cap: cap('daily_cap'),
    monthly_cap: cap('monthly_cap'),
    schedule: scheduleOf(values),
    payout: String(values.payout).trim(),
    ...biddingBody(values)
  };
  if (values.timezone) body.timezone = values.timezone;
  if (!editing) body.buyer_id = Number(values.buyer_id);
  return body;
}

/** One line for the list: "Always open", or "Mon 09:00-17:00; Sat 10:00-14:00". */
export function scheduleSummary(schedule: Schedule | null | undefined): string {
  const days = DAYS.filter(([day]) => schedule?.[day]?.length);
  if (!schedule || Object.keys(schedule).length === 0) return 'Always open';
  if (days.length === 0) return 'Closed';
  return days.map(([day, name]) => `${name.slice(0, 3)} ${windowsText(schedule[day] ?? [])}`).join('; ');
}

/** Caps as a short line: "2 at once, 50/day", or "No caps". */
export function capsSummary(t: Partial<Pick<TargetOut, CapField>>): string {
  const parts: string[] = [];
  if (t.concurrency_cap !== null && t.concurrency_cap !== undefined) parts.push(`${t.concurrency_cap} at once`);
  if (t.hourly_cap !== null && t.hourly_cap !== undefined) parts.push(`${t.hourly_cap}/hour`);
  if (t.daily_cap !== null && t.daily_cap !== undefined) parts.push(`${t.daily_cap}/day`);
  if (t.monthly_cap !== null && t.monthly_cap !== undefined) parts.push(`${t.monthly_cap}/month`);
  return parts.length ? parts.join(', ') : 'No caps';
}
