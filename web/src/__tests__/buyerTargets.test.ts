import { describe, expect, it } from 'vitest';
import { availability, capUse } from '../utils/buyerTargets';

const target: Parameters<typeof availability>[0] = {
  status: 'active',
  open_now: true,
  calls_this_hour: 1,
  calls_today: 4,
  calls_this_month: 40,
  hourly_cap: null,
  daily_cap: 5,
  monthly_cap: null
};

describe("buyer's targets", () => {
  it('shows each period against its cap, or says there is none', () => {
    expect(capUse(4, 5)).toEqual({ text: '4 / 5', percent: 80, full: false });
    expect(capUse(7, 5)).toEqual({ text: '7 / 5', percent: 100, full: true });
    expect(capUse(3, null)).toEqual({ text: '3 (no cap)', percent: null, full: false });
    expect(capUse(0, 0)).toEqual({ text: '0 / 0', percent: 100, full: true });
  });

  it('says whether a target takes calls now, and why not', () => {
    expect(availability(target)).toEqual({ label: 'Taking calls', color: 'success' });
    expect(availability({ ...target, calls_today: 5 }).label).toBe("Today's cap reached");
    expect(availability({ ...target, open_now: false }).label).toBe('Closed now');
    expect(availability({ ...target, status: 'inactive', open_now: false }).label).toBe('Paused');
  });
});
