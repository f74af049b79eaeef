import { describe, expect, it } from 'vitest';
import { formatSeconds } from '../utils/time';
import {
  bucketLabel,
  callOutcome,
  countLabel,
  filterProblem,
  reportParams,
  seriesIsEmpty,
  trailDetails
} from '../utils/report';

describe('call report', () => {
  it('sends only the filters that are set, trimmed', () => {
    expect(reportParams({ fromDate: '', caller_number: '  ' })).toEqual({});
    expect(reportParams({ fromDate: '', caller_number: ' 7911 ', disposition: 'NO ANSWER' })).toEqual({
      caller_number: '7911',
      disposition: 'NO ANSWER'
    });
  });

  it('says a large total is an estimate, rounded', () => {
    expect(countLabel(1234)).toBe('1,234');
    expect(countLabel(1234, false)).toBe('1,234');
    expect(countLabel(1_234_567, true)).toBe('about 1.2 M');
    expect(countLabel(2_000_000, true)).toBe('about 2 M');
    expect(countLabel(45_400, true)).toBe('about 45 k');
  });

  it('says when the dates are the wrong way round', () => {
    expect(filterProblem({ fromDate: '2026-11-21', toDate: '2026-11-20' })).toMatch(/before the start/);
    expect(filterProblem({ fromDate: '2026-11-20', toDate: '2026-11-20' })).toBe('');
    expect(filterProblem({ fromDate: '', toDate: '2026-11-20' })).toBe('');
    expect(filterProblem({ fromDate: '11/20/2026' })).toMatch(/YYYY-MM-DD/);
  });

  it('shows billed seconds as minutes', () => {
    expect(formatSeconds(61)).toBe('1:01');
    expect(formatSeconds(3725)).toBe('1:02:05');
  });

  it("lists a trail entry's own fields", () => {
    const entry = { step: 'dial', at: 'x', result: 'BUSY', reason: 'busy', target: 'Desk', sip: 486, attempt: null };
    expect(trailDetails(entry)).toEqual(['target: Desk', 'sip: 486']);
  });
});

describe('dashboard series labels', () => {
  it('hours for a day, dates for longer periods', () => {
    expect(bucketLabel('2026-11-24T14:00:00+01:00', true)).toBe('14:00');
    expect(bucketLabel('2026-11-21T00:00:00+01:00', false)).toBe('Nov 21');
  });
});

describe('a call in progress', () => {
  it('shows "in progress" until its row is final, then its disposition', () => {
    expect(callOutcome({ disposition: 'FAILED', ended_at: null })).toEqual({
      label: 'in progress',
      color: 'info',
      final: false
    });
    expect(callOutcome({ disposition: 'ANSWERED' })).toMatchObject({ label: 'in progress', final: false });
    expect(callOutcome({ disposition: 'NO_ROUTE', ended_at: '2026-11-25T10:00:05Z' })).toEqual({
      label: 'NO_ROUTE',
      color: 'default',
      final: true
    });
    expect(callOutcome({ disposition: 'ANSWERED', ended_at: '2026-11-25T10:00:05Z' })).toMatchObject({
      label: 'ANSWERED',
      color: 'success'
    });
  });
});

describe('dashboard chart', () => {
  it('is empty when no bucket has a call', () => {
    expect(seriesIsEmpty([])).toBe(true);
    expect(seriesIsEmpty(undefined)).toBe(true);
    expect(seriesIsEmpty([{ Calls: 0, Answered: 0 }, { Calls: 0 }])).toBe(true);
    expect(seriesIsEmpty([{ Calls: 0 }, { Calls: 2, Answered: 1 }])).toBe(false);
  });
});
