import { describe, expect, it } from 'vitest';
import { callDuration, elapsed, newestFirst } from '../utils/liveCalls';

const at = (iso: string): number => Date.parse(iso);

describe('live call durations', () => {
  it('counts minutes and seconds, and hours past an hour', () => {
    expect(elapsed('2026-11-24T10:00:00+00:00', at('2026-11-24T10:00:07Z'))).toBe('0:07');
    expect(elapsed('2026-11-24T10:00:00.123456+00:00', at('2026-11-24T10:02:05Z'))).toBe('2:04');
    expect(elapsed('2026-11-24T10:00:00Z', at('2026-11-24T11:01:05Z'))).toBe('1:01:05');
  });

  it('never goes negative when the browser clock is behind, and shows a dash for no time', () => {
    expect(elapsed('2026-11-24T10:00:05Z', at('2026-11-24T10:00:00Z'))).toBe('0:00');
    expect(elapsed(undefined)).toBe('—');
    expect(elapsed('not a time')).toBe('—');
  });

  it('a talking call counts from when it connected, a ringing one from when it came in', () => {
    const now = at('2026-11-24T10:01:00Z');
    const call = { started_at: '2026-11-24T10:00:00Z', connected_at: '2026-11-24T10:00:50Z' };
    expect(callDuration({ ...call, state: 'connected' }, now)).toBe('0:10');
    expect(callDuration({ ...call, state: 'ringing', connected_at: undefined }, now)).toBe('1:00');
  });

  it('lists the newest call first without changing the store list', () => {
    const calls = [
      { linkedid: 'a', started_at: '2026-11-24T10:00:00Z' },
      { linkedid: 'b', started_at: '2026-11-24T10:05:00Z' }
    ];
    expect(newestFirst(calls).map((c) => c.linkedid)).toEqual(['b', 'a']);
    expect(calls[0]?.linkedid).toBe('a');
    expect(newestFirst(undefined)).toEqual([]);
  });
});
