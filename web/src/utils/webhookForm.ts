// The webhook form's values <-> the API's webhook body (portal_api/schemas/webhooks.py).
import type { WebhookEvent, WebhookOut } from '../client';
import type { FieldErrors } from './validation';

export interface WebhookForm {
  url: string;
  events: WebhookEvent[];
}

/** Who a new webhook is for: one campaign's calls or one buyer's. */
export type WebhookOwner = { campaign_id: number } | { buyer_id: number };

export const EVENTS: readonly (readonly [WebhookEvent, string])[] = [
  ['incoming', 'Incoming'],
  ['routed', 'Routed'],
  ['connected', 'Connected'],
  ['converted', 'Converted'],
  ['completed', 'Completed'],
  ['rated', 'Rated'],
  ['attributed', 'Attributed (ad platform event)'],
  ['transcribed', 'Transcribed']
];
// A buyer is known only once a call is routed: its webhooks can't take `incoming`; where a call came
// from is the customer's: nor `attributed`.
const CAMPAIGN_ONLY: readonly WebhookEvent[] = ['incoming', 'attributed'];
export const BUYER_EVENTS = EVENTS.filter(([value]) => !CAMPAIGN_ONLY.includes(value));
export const TOKENS: readonly string[] = [
  'event',
  'linkedid',
  'caller',
  'did',
  'campaign_id',
  'buyer_id',
  'target_id',
  'disposition',
  'duration',
  'billsec',
  'talk_seconds',
  'payout',
  'cost',
  'converted'
];

export function emptyWebhook(): WebhookForm {
  return { url: '', events: ['completed'] };
}

export function webhookToForm(hook: Pick<WebhookOut, 'url' | 'events'>): WebhookForm {
  return { url: hook.url, events: [...hook.events] };
}

/** The events ticked, in a call's order, with `value` added or removed. */
export function toggleEvent(events: readonly WebhookEvent[], value: WebhookEvent, on: boolean): WebhookEvent[] {
  const chosen = new Set(events);
  if (on) chosen.add(value);
  else chosen.delete(value);
  return EVENTS.map(([v]) => v).filter((v) => chosen.has(v));
}

/** `{field: message}`, as the API checks: an http(s) URL whose `{tokens}` exist, some events. */
export function validateWebhook(
  values: WebhookForm,
  { buyer = false }: { buyer?: boolean } = {}
): FieldErrors<keyof WebhookForm> {
  const errors: FieldErrors<keyof WebhookForm> = {};
  const url = values.url.trim();
  const unknown = [...url.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1] ?? '').find((t) => !TOKENS.includes(t));
  if (!url) errors.url = 'URL is required';
  else if (!/^https?:\/\/[^\s/?#{}]+\S*$/.test(url)) errors.url = 'Must be an http:// or https:// URL';
  else if (unknown !== undefined) errors.url = `{${unknown}} is no token`;
  if (!values.events.length) errors.events = 'Choose at least one event';
  else if (buyer && values.events.includes('incoming')) errors.events = "A buyer's webhook can't take Incoming";
  else if (buyer && values.events.includes('attributed')) errors.events = "A buyer's webhook can't take Attributed";
  return errors;
}

/** The request body: a new webhook names its campaign or buyer (`owner`); an edit never moves it. */
export function webhookBody(
  values: WebhookForm,
  owner: WebhookOwner | null = null
): WebhookForm | (WebhookForm & WebhookOwner) {
  const body = { url: values.url.trim(), events: values.events };
  return owner ? { ...owner, ...body } : body;
}
