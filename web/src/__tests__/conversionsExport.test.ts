import { describe, expect, it } from 'vitest';

import {
  conversionsFilename,
  conversionsQuery,
  lastDays,
  validateConversions,
  type ConversionsForm
} from '../utils/conversionsExport';

const form = (values: Partial<ConversionsForm> = {}): ConversionsForm => ({
  fromDate: '2026-11-01',
  toDate: '2026-11-30',
  conversionName: 'Phone call',
  userId: null,
  ...values
});

describe('the Google Ads conversions export form', () => {
  it('takes a range of up to 90 days, both ends included', () => {
    expect(validateConversions(form(), false)).toEqual({});
    expect(validateConversions(form({ fromDate: '2026-08-01', toDate: '2026-10-29' }), false)).toEqual({});
    expect(validateConversions(form({ fromDate: '2026-08-01', toDate: '2026-10-30' }), false)).toEqual({
      fromDate: 'At most 90 days at a time'
    });
    expect(validateConversions(form({ fromDate: '2026-11-30', toDate: '2026-11-01' }), false)).toEqual({
      toDate: "The last day can't be before the first"
    });
    expect(validateConversions(form({ toDate: '' }), false)).toEqual({ toDate: 'Choose the last day' });
  });

  it('wants a name Google Ads can match and, for an admin, the customer', () => {
    expect(validateConversions(form({ conversionName: ' ' }), false).conversionName).toBeTruthy();
    expect(validateConversions(form({ conversionName: '=cmd' }), false).conversionName).toBe(
      "Can't start with = + - or @"
    );
    expect(validateConversions(form(), true)).toEqual({ userId: 'Choose the customer' });
    expect(validateConversions(form({ userId: 4 }), true)).toEqual({});
  });

  it('asks the API with the trimmed name and the customer an admin chose', () => {
    expect(conversionsQuery(form({ conversionName: ' Booked ', userId: 4 }))).toEqual({
      fromDate: '2026-11-01',
      toDate: '2026-11-30',
      conversion_name: 'Booked',
      user_id: 4
    });
    expect(conversionsQuery(form())).not.toHaveProperty('user_id');
    expect(conversionsFilename(form())).toBe('google-ads-conversions-2026-11-01-2026-11-30.csv');
    expect(lastDays('2026-03-02', 7)).toEqual({ fromDate: '2026-02-24', toDate: '2026-03-02' });
  });
});
