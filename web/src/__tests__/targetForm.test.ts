import { describe, expect, it } from 'vitest';
import {
  capsSummary,
  emptyTarget,
  parseWindows,
  scheduleSummary,
  targetBody,
  targetToForm,
  validateTarget,
  type EditedTarget,
  type TargetForm
} from '../utils/targetForm';

const filled = (extra: Partial<TargetForm> = {}): TargetForm => ({
  ...emptyTarget(),
  buyer_id: '4',
  name: 'Desk',
  destination: '+14155550100',
  ...extra
});

describe('target dialog', () => {
  it('needs a buyer, a name and a destination; an edit keeps its buyer', () => {
    expect(validateTarget(emptyTarget())).toEqual({
      buyer_id: 'Buyer is required',
      name: 'Name is required',
      destination: 'Destination is required'
    });
    expect(validateTarget({ ...filled(), buyer_id: '' }, { editing: true })).toEqual({});
  });

  it("starts a new target in the account's zone, and leaves an empty zone to the API (the customer's)", () => {
    expect(emptyTarget('Europe/Berlin').timezone).toBe('Europe/Berlin');
    expect(targetBody({ ...filled(), timezone: '' })).not.toHaveProperty('timezone');
    expect(targetBody({ ...filled(), timezone: 'Europe/Berlin' }).timezone).toBe('Europe/Berlin');
  });

  it('reads open hours typed per day, and says what is wrong with them', () => {
    expect(parseWindows(' 9:00-12:00 , 13:00 – 17:30 ')).toEqual([
      ['09:00', '12:00'],
      ['13:00', '17:30']
    ]);
    expect(parseWindows('')).toEqual([]);
    expect(parseWindows('18:00-24:00')).toEqual([['18:00', '24:00']]);
    expect(() => parseWindows('9am-5pm')).toThrow('"9am-5pm" is not a window like 09:00-17:00');
    expect(() => parseWindows('17:00-09:00')).toThrow('17:00-09:00 must start before it ends');
    expect(() => parseWindows('09:00-25:00')).toThrow('25:00 is not a time of day');
    expect(() => parseWindows('09:00-12:00, 11:00-13:00')).toThrow('Windows overlap');
    const hours = { ...emptyTarget().hours, mon: '09:00-12:00', tue: 'soon' };
    expect(validateTarget(filled({ always_open: false, hours }))).toEqual({
      'hours.tue': '"soon" is not a window like 09:00-17:00'
    });
    expect(validateTarget(filled({ always_open: false }))).toEqual({
      hours: 'Give the open hours of at least one day, or choose open around the clock'
    });
  });

  it('checks caps and payout the way the server does', () => {
    expect(validateTarget(filled({ concurrency_cap: '1.5', daily_cap: '2000000', payout: '-1' }))).toEqual({
      concurrency_cap: 'Live calls at once: a whole number up to 1000000, or empty for no limit',
      daily_cap: 'Calls per day: a whole number up to 1000000, or empty for no limit',
      payout: 'Payout must be an amount like 12.50'
    });
  });

  it('sends empty caps as no limit, the days with hours, and the buyer only when created', () => {
    const values = filled({
      trunk_id: '3',
      concurrency_cap: '2',
      payout: '12.5',
      timezone: 'America/Chicago',
      always_open: false,
      hours: { ...emptyTarget().hours, mon: '09:00-17:00' }
    });
    expect(targetBody(values)).toEqual({
      buyer_id: 4,
      name: 'Desk',
      destination: '+14155550100',
      trunk_id: 3,
      concurrency_cap: 2,
      hourly_cap: null,
      daily_cap: null,
      monthly_cap: null,
      timezone: 'America/Chicago',
      schedule: { mon: [['09:00', '17:00']] },
      payout: '12.5',
      ping_url: null,
      post_url: null,
      bid_deadline_ms: 300,
      min_bid: null
    });
    const edit = targetBody(filled({ hours: values.hours }), { editing: true });
    expect(edit.schedule).toEqual({}); // open around the clock wins over typed hours
    expect(edit).not.toHaveProperty('buyer_id');
    expect(edit.trunk_id).toBeNull();
  });

  it('starts an edit from the target, and back to the same body', () => {
    const target: EditedTarget = {
      buyer_id: 4,
      name: 'Desk',
      destination: '+14155550100',
      trunk_id: null,
      concurrency_cap: 0,
      hourly_cap: null,
      daily_cap: 50,
      monthly_cap: null,
      timezone: 'UTC',
      schedule: { sat: [['10:00', '14:00']] },
      payout: '12.5000'
    };
    const form = targetToForm(target);
    expect(form).toMatchObject({
      concurrency_cap: '0',
      daily_cap: '50',
      hourly_cap: '',
      payout: '12.5',
      always_open: false,
      trunk_id: ''
    });
    expect(form.hours.sat).toBe('10:00-14:00');
    expect(targetBody(form, { editing: true })).toMatchObject({
      concurrency_cap: 0,
      daily_cap: 50,
      schedule: target.schedule,
      payout: '12.5'
    });
  });

  it('a bidder needs a ping URL, a deadline of 50-5000 ms and, if any, an amount as its minimum bid', () => {
    const bidder = (extra: Partial<TargetForm> = {}) =>
      filled({ bidding: true, ping_url: 'https://bids.acme.example/ping', ...extra });
    expect(validateTarget(bidder())).toEqual({});
    expect(validateTarget(bidder({ ping_url: '' }))).toEqual({
      ping_url: 'A bidder needs the URL it is asked for bids at'
    });
    expect(
      validateTarget(
        bidder({
          ping_url: 'ftp://bids.acme.example',
          post_url: 'bids.acme.example/post',
          bid_deadline_ms: '20',
          min_bid: '-1'
        })
      )
    ).toEqual({
      ping_url: 'Ping URL must be an http:// or https:// URL',
      post_url: 'Post URL must be an http:// or https:// URL, or empty',
      bid_deadline_ms: 'Bid deadline: whole milliseconds from 50 to 5000',
      min_bid: 'Minimum bid must be an amount like 2.50, or empty'
    });
    expect(validateTarget(bidder({ ping_url: 'https://user:pw@bids.acme.example/' }))).toHaveProperty('ping_url');
    expect(validateTarget(bidder({ bid_deadline_ms: '5001' }))).toHaveProperty('bid_deadline_ms');
    // Switched off, the bidding fields are neither checked nor sent.
    expect(validateTarget(filled({ bidding: false, ping_url: 'nonsense', bid_deadline_ms: 'x' }))).toEqual({});
  });

  it("sends a bidder's settings, an empty post URL and minimum as null, and clears them when switched off", () => {
    const values = filled({
      bidding: true,
      ping_url: ' https://bids.acme.example/ping ',
      post_url: '',
      bid_deadline_ms: '250',
      min_bid: '2.5'
    });
    expect(targetBody(values)).toMatchObject({
      ping_url: 'https://bids.acme.example/ping',
      post_url: null,
      bid_deadline_ms: 250,
      min_bid: '2.5'
    });
    expect(targetBody({ ...values, bidding: false }, { editing: true })).toMatchObject({
      ping_url: null,
      post_url: null,
      bid_deadline_ms: 300,
      min_bid: null
    });
    const form = targetToForm({
      ...targetBody(values),
      timezone: 'UTC',
      buyer_id: 4,
      schedule: {},
      payout: '0.0000',
      min_bid: '2.5000',
      post_url: 'https://bids.acme.example/post'
    });
    expect(form).toMatchObject({
      bidding: true,
      ping_url: 'https://bids.acme.example/ping',
      post_url: 'https://bids.acme.example/post',
      bid_deadline_ms: '250',
      min_bid: '2.5'
    });
    expect(
      targetToForm({
        buyer_id: 4,
        name: 'Desk',
        destination: '+14155550100',
        trunk_id: null,
        concurrency_cap: null,
        hourly_cap: null,
        daily_cap: null,
        monthly_cap: null,
        timezone: 'UTC',
        schedule: {},
        payout: '0',
        ping_url: null,
        bid_deadline_ms: 300,
        min_bid: null
      })
    ).toMatchObject({ bidding: false, ping_url: '', min_bid: '' });
  });

  it('sums up hours and caps in one line each', () => {
    expect(scheduleSummary({})).toBe('Always open');
    expect(
      scheduleSummary({
        sat: [['10:00', '14:00']],
        mon: [
          ['09:00', '12:00'],
          ['13:00', '17:00']
        ]
      })
    ).toBe('Mon 09:00-12:00, 13:00-17:00; Sat 10:00-14:00');
    expect(capsSummary({ concurrency_cap: 2, hourly_cap: null, daily_cap: 50, monthly_cap: null })).toBe(
      '2 at once, 50/day'
    );
    expect(capsSummary({ concurrency_cap: null })).toBe('No caps');
  });
});
