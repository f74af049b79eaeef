import { describe, expect, it } from 'vitest';
import {
  DEFAULT_COLUMNS,
  fromSaved,
  presetDates,
  toSaved,
  viewFromParams,
  viewQuery,
  viewToParams
} from '../utils/reportView';

const at = (iso: string): number => Date.parse(iso);

describe('the report view in the URL', () => {
  it('reads the defaults from a plain URL and writes a plain URL back', () => {
    const view = viewFromParams(new URLSearchParams());
    expect(view).toEqual({
      filters: {},
      preset: '',
      sort: 'started_at',
      direction: 'desc',
      columns: [...DEFAULT_COLUMNS],
      group: ''
    });
    expect(viewToParams(view).toString()).toBe('');
  });

  it('round-trips filters, preset, sort, columns and grouping, and drops what it does not know', () => {
    const params = new URLSearchParams(
      'preset=7d&campaign_id=4&caller_number=%2B44&sort=cost&direction=asc&cols=caller,profit,trail&group=day&bogus=1'
    );
    const view = viewFromParams(params);
    expect(view).toMatchObject({
      filters: { campaign_id: '4', caller_number: '+44' },
      preset: '7d',
      sort: 'cost',
      direction: 'asc',
      columns: ['caller', 'profit'],
      group: 'day'
    });
    expect(viewFromParams(viewToParams(view))).toEqual(view);
    expect(viewFromParams(new URLSearchParams('sort=caller&group=source')).sort).toBe('started_at');
  });

  it("falls back to the person's own columns when the URL names none", () => {
    expect(viewFromParams(new URLSearchParams(), ['caller']).columns).toEqual(['caller']);
  });
});

describe('date presets in the user time zone', () => {
  // 23:30 UTC on 1 December is already the 2nd in Berlin, still the 1st in New York.
  const now = at('2026-12-01T23:30:00Z');
  it('resolves today, yesterday, 7 days and this month in the zone', () => {
    expect(presetDates('today', now, 'Europe/Berlin')).toEqual({ fromDate: '2026-12-02', toDate: '2026-12-02' });
    expect(presetDates('today', now, 'America/New_York')).toEqual({ fromDate: '2026-12-01', toDate: '2026-12-01' });
    expect(presetDates('yesterday', now, 'Europe/Berlin')).toEqual({ fromDate: '2026-12-01', toDate: '2026-12-01' });
    expect(presetDates('7d', now, 'America/New_York')).toEqual({ fromDate: '2026-11-25', toDate: '2026-12-01' });
    expect(presetDates('month', now, 'America/New_York')).toEqual({ fromDate: '2026-12-01', toDate: '2026-12-01' });
    expect(presetDates('month', now, 'Europe/Berlin')).toEqual({ fromDate: '2026-12-01', toDate: '2026-12-02' });
  });

  it('sends a preset as its dates, custom dates as typed', () => {
    const preset = viewFromParams(new URLSearchParams('preset=yesterday&fromDate=2020-01-01'));
    expect(viewQuery(preset, now, 'UTC')).toEqual({ fromDate: '2026-11-30', toDate: '2026-11-30' });
    const custom = viewFromParams(new URLSearchParams('preset=custom&fromDate=2020-01-01'));
    expect(viewQuery(custom, now, 'UTC')).toEqual({ fromDate: '2020-01-01' });
  });
});

describe('saved views', () => {
  it('keep a preset as a period and come back as the same view', () => {
    const view = viewFromParams(
      new URLSearchParams('preset=month&fromDate=2026-01-01&buyer_id=3&sort=payout&group=hour')
    );
    const saved = toSaved('Monthly', view);
    expect(saved.filters).toEqual({ preset: 'month', buyer_id: '3' });
    expect(fromSaved(saved)).toEqual({ ...view, filters: { buyer_id: '3' } });
  });
});
