// The rate dialog's values <-> the API's rate body (portal_api/schemas/rating.py), the rate-card
// CSV the import reads and the export writes, and the import's per-line report.
import type { RateCreate, RateOut } from '../client';
import { type CsvColumn, toCsv } from './download';
import type { FieldErrors } from './validation';

export interface RateForm {
  prefix: string;
  country: string;
  rate_per_minute: string;
  connection_fee: string;
  initial_increment: string;
  billing_increment: string;
  min_duration: string;
  effective_from: string;
}

type Country = NonNullable<RateCreate['country']>;

/** One line's problems in a refused import. */
export interface ImportProblem {
  line: number;
  problems: string[];
}

const MONEY = /^\d{1,14}(\.\d{1,4})?$/;
const MAX_SECONDS = 3600;
// What the import reads (portal_api/rate_import.py), in its column order: an export re-imports.
/** A rate's fields the dialog and the rate-card CSV use. */
export type RateLine = Pick<
  RateOut,
  | 'prefix'
  | 'country'
  | 'rate_per_minute'
  | 'connection_fee'
  | 'initial_increment'
  | 'billing_increment'
  | 'min_duration'
  | 'effective_from'
>;

const CSV_COLUMNS: readonly CsvColumn<RateLine>[] = [
  ['prefix', (r) => r.prefix],
  ['country', (r) => r.country ?? ''],
  ['rate', (r) => r.rate_per_minute],
  ['connection_fee', (r) => r.connection_fee],
  ['initial_increment', (r) => r.initial_increment],
  ['billing_increment', (r) => r.billing_increment],
  ['min_duration', (r) => r.min_duration],
  ['effective_from', (r) => r.effective_from]
];

export function emptyRate(): RateForm {
  return {
    prefix: '',
    country: '',
    rate_per_minute: '',
    connection_fee: '0',
    initial_increment: '60',
    billing_increment: '60',
    min_duration: '0',
    effective_from: ''
  };
}

/** Dates are edited as UTC `YYYY-MM-DD HH:MM` (rate cards are exchanged in UTC). */
export function utcMinute(iso: string | null | undefined): string {
  const ms = Date.parse(iso ?? '');
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

export function rateToForm(r: RateLine): RateForm {
  return {
    prefix: r.prefix,
    country: r.country ?? '',
    rate_per_minute: String(Number(r.rate_per_minute)),
    connection_fee: String(Number(r.connection_fee)),
    initial_increment: String(r.initial_increment),
    billing_increment: String(r.billing_increment),
    min_duration: String(r.min_duration),
    effective_from: utcMinute(r.effective_from)
  };
}

function seconds(text: string, { min }: { min: number }): boolean {
  const t = String(text).trim();
  return /^\d+$/.test(t) && Number(t) >= min && Number(t) <= MAX_SECONDS;
}

/** `{field: message}`: what the server would refuse, said before asking it. */
export function validateRate(values: RateForm): FieldErrors<keyof RateForm> {
  const errors: FieldErrors<keyof RateForm> = {};
  const prefix = values.prefix.trim().replace(/^\+/, '');
  if (!/^[1-9]\d{0,14}$/.test(prefix))
    errors.prefix = 'Prefix: up to 15 digits starting with a country code, e.g. 4420';
  if (values.country.trim() && !/^[A-Za-z]{2}$/.test(values.country.trim()))
    errors.country = 'A two-letter country code, such as GB';
  if (!MONEY.test(values.rate_per_minute.trim())) errors.rate_per_minute = 'Rate must be an amount like 0.0125';
  if (!MONEY.test(values.connection_fee.trim())) errors.connection_fee = 'Connect fee must be an amount like 0.05';
  if (!seconds(values.initial_increment, { min: 1 })) errors.initial_increment = 'Seconds from 1 to 3600';
  if (!seconds(values.billing_increment, { min: 1 })) errors.billing_increment = 'Seconds from 1 to 3600';
  if (!seconds(values.min_duration, { min: 0 })) errors.min_duration = 'Seconds from 0 to 3600';
  if (values.effective_from.trim() && !/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?$/.test(values.effective_from.trim())) {
    errors.effective_from = 'A UTC date like 2026-01-01 or 2026-01-01 09:00';
  } else if (
    values.effective_from.trim() &&
    utcMinute(isoOf(values.effective_from)) !== isoOf(values.effective_from).slice(0, 16).replace('T', ' ')
  ) {
    errors.effective_from = 'Not a real date';
  }
  return errors;
}

function isoOf(text: string): string {
  const [day, time = '00:00'] = text.trim().split(' ');
  return `${day}T${time}:00Z`;
}

export function rateBody(values: RateForm, tariffId: number): RateCreate {
  const body: RateCreate = {
    tariff_id: tariffId,
    prefix: values.prefix.trim().replace(/^\+/, ''),
    rate_per_minute: values.rate_per_minute.trim(),
    connection_fee: values.connection_fee.trim(),
    initial_increment: Number(values.initial_increment),
    billing_increment: Number(values.billing_increment),
    min_duration: Number(values.min_duration)
  };
  // Two letters, checked by validateRate; the server answers 422 for a code that is no country.
  if (values.country.trim()) body.country = values.country.trim().toUpperCase() as Country;
  if (values.effective_from.trim()) body.effective_from = isoOf(values.effective_from);
  return body;
}

/** "60/60": the first block and each one after, in seconds. */
export function increments(r: Pick<RateOut, 'initial_increment' | 'billing_increment'>): string {
  return `${r.initial_increment}/${r.billing_increment}`;
}

export function ratesCsv(rows: readonly RateLine[]): string {
  return toCsv(rows, CSV_COLUMNS);
}

/** The import refusal's `errors` (`{"line 7": [...]}`) as rows `{line, problems}`, by line. */
export function importProblems(errors: Record<string, string[] | string> | null | undefined): ImportProblem[] {
  return Object.entries(errors ?? {})
    .map(([key, problems]) => ({
      line: Number(String(key).replace(/\D/g, '')) || 0,
      problems: Array.isArray(problems) ? problems : [problems]
    }))
    .sort((a, b) => a.line - b.line);
}
