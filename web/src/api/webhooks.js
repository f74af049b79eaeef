// Call webhooks (docs/webhooks.md): a campaign's or a buyer's, and a call's delivery log.
import client, { unwrap } from './client';
import entityApi from './entity';

export const webhooks = entityApi('/webhook');

/** A new signing secret for webhook `id` (the old one stops signing). */
export async function newSecret(id) {
  return unwrap(await client.post(`/webhook/secret/${id}`));
}

/** Call `callId`'s events as sent to the webhooks the user sees. */
export async function fetchDeliveries(callId) {
  return unwrap(await client.get(`/webhook/deliveries/${callId}`));
}

/** Send delivery `id`'s event again now. */
export async function sendAgain(id) {
  return unwrap(await client.post(`/webhook/resend/${id}`));
}
