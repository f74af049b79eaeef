// Stand-in types for utils/webhookForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/webhookForm.ts lands.
import type { WebhookEvent, WebhookOut } from '../client';
import type { FieldErrors } from './validation';
export interface WebhookForm {
  url: string;
  events: WebhookEvent[];
}
/** Who a new webhook is for: one campaign's calls or one buyer's. */
export type WebhookOwner =
  | {
      campaign_id: number;
    }
  | {
      buyer_id: number;
    };
export declare const EVENTS: readonly (readonly [WebhookEvent, string])[];
export declare const BUYER_EVENTS: (readonly [WebhookEvent, string])[];
export declare const TOKENS: readonly string[];
export declare function emptyWebhook(): WebhookForm;
export declare function webhookToForm(hook: Pick<WebhookOut, 'url' | 'events'>): WebhookForm;
/** The events ticked, in a call's order, with `value` added or removed. */
export declare function toggleEvent(events: readonly WebhookEvent[], value: WebhookEvent, on: boolean): WebhookEvent[];
/** `{field: message}`, as the API checks: an http(s) URL whose `{tokens}` exist, some events. */
export declare function validateWebhook(
  values: WebhookForm,
  {
    buyer
  }?: {
    buyer?: boolean;
  }
): FieldErrors<keyof WebhookForm>;
/** The request body: a new webhook names its campaign or buyer (`owner`); an edit never moves it. */
export declare function webhookBody(
  values: WebhookForm,
  owner?: WebhookOwner | null
): WebhookForm | (WebhookForm & WebhookOwner);
