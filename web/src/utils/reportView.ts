// The call report's view as its URL carries it (shareable; the back button walks it): the filters,
// a date preset resolved in the user's time zone, the sort, the columns shown and the grouping.
import type { ReportColumn, ReportDimension, ReportSort, ReportViewIn, SortDirection } from '../client';
import { safeTimeZone } from './time';

export const PRESETS = [
  ['today', 'Today'],
  ['yesterday', 'Yesterday'],
  ['7d', 'Last 7 days'],
  ['month', 'This month'],
  ['custom', 'Custom dates']
] as const;
export type Preset = (typeof PRESETS)[number][0];

/** The text filters (the spec's, the visit's, the conversation's) and the pickers' ids; each is a
 * query parameter of /report. */
export const TEXT_FILTERS = [
  ['disposition', 'Disposition'],
  ['caller_number', 'Caller'],
  ['caller_country', 'Caller country'],
  ['caller_region', 'Caller region'],
  ['did_number', 'Tracking number'],
  ['target_number', 'Target number'],
  ['campaign_name', 'Campaign name'],
  ['medium', 'Medium (utm_medium)'],
  ['utm_campaign', 'Ad campaign (utm_campaign)'],
  ['keyword', 'Keyword (utm_term)'],
  ['landing_page', 'Landing page'],
  ['words', 'Words said'],
  ['tag', 'Tag']
] as const;
export const ID_FILTERS = ['user_id', 'campaign_id', 'target_id', 'buyer_id', 'source_id'] as const;
const FILTER_KEYS: readonly string[] = [...TEXT_FILTERS.map(([key]) => key), ...ID_FILTERS, 'fromDate', 'toDate'];

export const SORTS: readonly ReportSort[] = ['started_at', 'duration', 'cost', 'payout'];
export const DIMENSIONS: readonly (readonly [ReportDimension, string])[] = [
  ['campaign', 'Campaign'],
  ['target', 'Target'],
  ['buyer', 'Buyer'],
  ['number', 'Tracking number'],
  ['day', 'Day'],
  ['hour', 'Hour'],
  ['source', 'Source'],
  ['medium', 'Medium'],
  ['utm_campaign', 'Ad campaign'],
  ['keyword', 'Keyword'],
  ['landing_page', 'Landing page'],
  ['tag', 'Tags']
];

/** Every column of the table: its key, heading, and the sort it answers to (when sortable). */
export const COLUMNS: readonly {
  key: ReportColumn;
  label: string;
  sort?: ReportSort;
  right?: boolean;
  admin?: boolean;
}[] = [
  { key: 'started_at', label: 'Started', sort: 'started_at' },
  { key: 'caller', label: 'Caller' },
  { key: 'origin', label: 'From' },
  { key: 'did', label: 'Tracking number' },
  { key: 'customer', label: 'Customer', admin: true },
  { key: 'campaign', label: 'Campaign' },
  { key: 'target', label: 'Target' },
  { key: 'buyer', label: 'Buyer' },
  { key: 'disposition', label: 'Disposition' },
  { key: 'duration', label: 'Duration', sort: 'duration', right: true },
  { key: 'billsec', label: 'Billed', right: true },
  { key: 'hangup_by', label: 'Hung up by' },
  { key: 'revenue', label: 'Revenue', sort: 'payout', right: true },
  { key: 'source', label: 'Source' },
  { key: 'cost', label: 'Cost', sort: 'cost', right: true },
  { key: 'publisher_payout', label: 'Publisher payout', right: true },
  { key: 'profit', label: 'Profit', right: true }
];
export const DEFAULT_COLUMNS: readonly ReportColumn[] = [
  'started_at',
  'caller',
  'origin',
  'did',
  'customer',
  'campaign',
  'target',
  'disposition',
  'billsec',
  'hangup_by',
  'revenue',
  'cost',
  'profit'
];

export interface ReportView {
  /** Filters as typed (text), by query parameter; dates only with the custom preset. */
  filters: Record<string, string>;
  preset: Preset | '';
  sort: ReportSort;
  direction: SortDirection;
  columns: ReportColumn[];
  group: ReportDimension | '';
}

const isPreset = (value: string | null): value is Preset => PRESETS.some(([key]) => key === value);
const isSort = (value: string | null): value is ReportSort => SORTS.includes(value as ReportSort);
const isDimension = (value: string | null): value is ReportDimension => DIMENSIONS.some(([key]) => key === value);
const isColumn = (value: string): value is ReportColumn => COLUMNS.some((c) => c.key === value);

/** The view a URL's query string describes; `columns` when it names none (the user's own choice). */
export function viewFromParams(
  params: URLSearchParams,
  columns: readonly ReportColumn[] = DEFAULT_COLUMNS
): ReportView {
  const filters: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (value) filters[key] = value;
  }
  const preset = params.get('preset');
  const sort = params.get('sort');
  const group = params.get('group');
  const named = (params.get('cols') ?? '').split(',').filter(isColumn);
  return {
    filters,
    preset: isPreset(preset) ? preset : '',
    sort: isSort(sort) ? sort : 'started_at',
    direction: params.get('direction') === 'asc' ? 'asc' : 'desc',
    columns: named.length ? named : [...columns],
    group: isDimension(group) ? group : ''
  };
}

/** The query string of a view: only what differs from the defaults, so a plain report's URL stays plain. */
export function viewToParams(view: ReportView, columns: readonly ReportColumn[] = DEFAULT_COLUMNS): URLSearchParams {
  const params = new URLSearchParams();
  if (view.preset) params.set('preset', view.preset);
  for (const [key, value] of Object.entries(view.filters)) {
    const dated = key === 'fromDate' || key === 'toDate';
    if (value && (!dated || !view.preset || view.preset === 'custom')) params.set(key, value);
  }
  if (view.sort !== 'started_at') params.set('sort', view.sort);
  if (view.direction !== 'desc') params.set('direction', view.direction);
  if (view.columns.join(',') !== columns.join(',')) params.set('cols', view.columns.join(','));
  if (view.group) params.set('group', view.group);
  return params;
}

/** YYYY-MM-DD of `epochMs` in `timeZone`. */
export function localDay(epochMs: number, timeZone: string | null | undefined): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: safeTimeZone(timeZone),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit'
  }).format(new Date(epochMs));
}

/** The day before (or `days` before) a YYYY-MM-DD, as a calendar date (no time zone involved). */
export function dayBefore(day: string, days = 1): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

/** The dates a preset means now in the user's zone (the server reads dates in that zone too). */
export function presetDates(
  preset: Preset | '',
  now: number,
  timeZone: string | null | undefined
): { fromDate?: string; toDate?: string } {
  const today = localDay(now, timeZone);
  switch (preset) {
    case 'today':
      return { fromDate: today, toDate: today };
    case 'yesterday':
      return { fromDate: dayBefore(today), toDate: dayBefore(today) };
    case '7d':
      return { fromDate: dayBefore(today, 6), toDate: today };
    case 'month':
      return { fromDate: `${today.slice(0, 8)}01`, toDate: today };
    default:
      return {};
  }
}

/** The API's query for a view: its filters, and a preset's dates resolved now. */
export function viewQuery(view: ReportView, now: number, timeZone: string | null | undefined): Record<string, string> {
  const query = { ...view.filters };
  if (view.preset && view.preset !== 'custom') {
    delete query.fromDate;
    delete query.toDate;
    Object.assign(query, presetDates(view.preset, now, timeZone));
  }
  return query;
}

/** A view as the server keeps it (a saved view), and back. */
export function toSaved(name: string, view: ReportView): ReportViewIn {
  const filters: Record<string, string> = { ...view.filters };
  if (view.preset) filters.preset = view.preset;
  if (view.preset && view.preset !== 'custom') {
    delete filters.fromDate;
    delete filters.toDate;
  }
  return {
    name,
    filters: filters as ReportViewIn['filters'],
    columns: view.columns,
    sort: view.sort,
    direction: view.direction,
    group_by: view.group || null
  };
}

export function fromSaved(saved: ReportViewIn): ReportView {
  const params = new URLSearchParams(Object.entries(saved.filters ?? {}).map(([k, v]) => [k, String(v)]));
  params.set('sort', saved.sort ?? 'started_at');
  params.set('direction', saved.direction ?? 'desc');
  if (saved.columns?.length) params.set('cols', saved.columns.join(','));
  if (saved.group_by) params.set('group', saved.group_by);
  return viewFromParams(params);
}

/** The columns a person chose last time, kept per user in this browser. */
export const columnsKey = (userId: number | string | null | undefined) => `report-columns:${userId ?? 'anonymous'}`;
