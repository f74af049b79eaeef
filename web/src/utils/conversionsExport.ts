// The Google Ads conversions export's form <-> the API's query (portal_api/schemas/conversions.py).
import type { ConversionsGoogleAdsData } from '../client';
import type { FieldErrors } from './validation';

export const LONGEST_RANGE_DAYS = 90; // Google Ads imports no older clicks
export const DEFAULT_CONVERSION_NAME = 'Phone call';

export interface ConversionsForm {
  fromDate: string; // yyyy-mm-dd, in the customer's time zone
  toDate: string;
  conversionName: string;
  userId: number | null; // the admin's choice of customer
}

const DAY_MS = 86_400_000;

/** The last `days` days up to `today` (yyyy-mm-dd), both ends included. */
export function lastDays(today: string, days: number): Pick<ConversionsForm, 'fromDate' | 'toDate'> {
  const from = new Date(Date.parse(`${today}T00:00:00Z`) - (days - 1) * DAY_MS);
  return { fromDate: from.toISOString().slice(0, 10), toDate: today };
}

/** `{field: message}`, as the API checks: a range of at most 90 days, a name Google Ads can match. */
export function validateConversions(values: ConversionsForm, admin: boolean): FieldErrors<keyof ConversionsForm> {
  const errors: FieldErrors<keyof ConversionsForm> = {};
  if (!values.fromDate) errors.fromDate = 'Choose the first day';
  if (!values.toDate) errors.toDate = 'Choose the last day';
  if (values.fromDate && values.toDate) {
    const days = (Date.parse(values.toDate) - Date.parse(values.fromDate)) / DAY_MS + 1;
    if (days < 1) errors.toDate = "The last day can't be before the first";
    else if (days > LONGEST_RANGE_DAYS) errors.fromDate = `At most ${LONGEST_RANGE_DAYS} days at a time`;
  }
  const name = values.conversionName.trim();
  if (!name) errors.conversionName = "The conversion action's name in Google Ads";
  else if (name.length > 100) errors.conversionName = 'At most 100 characters';
  else if (/^[=+\-@]/.test(name)) errors.conversionName = "Can't start with = + - or @";
  if (admin && values.userId === null) errors.userId = 'Choose the customer';
  return errors;
}

/** The request's query. */
export function conversionsQuery(values: ConversionsForm): ConversionsGoogleAdsData['query'] {
  const query: ConversionsGoogleAdsData['query'] = {
    fromDate: values.fromDate,
    toDate: values.toDate,
    conversion_name: values.conversionName.trim()
  };
  if (values.userId !== null) query.user_id = values.userId;
  return query;
}

export function conversionsFilename(values: ConversionsForm): string {
  return `google-ads-conversions-${values.fromDate}-${values.toDate}.csv`;
}
