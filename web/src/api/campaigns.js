// Campaigns (spec §7 Campaigns) and the routing dry run.
import client, { unwrap } from './client';
import entityApi from './entity';

export const campaigns = entityApi('/campaign');

/** Where a call from `caller` to `did` would go now, and why (writes nothing). */
export async function dryRun(did, caller) {
  return unwrap(await client.post('/routing/dry-run', { did, caller }));
}

/** The campaigns' IVR settings, a page of them (`enabled`, and for the admin `user_id`, filter). */
export const ivrList = entityApi('/ivr').list;

/** One campaign's IVR settings. */
export async function fetchIvr(campaignId) {
  return unwrap(await client.get(`/campaign/ivr/${campaignId}`));
}

/** Save a campaign's IVR settings (`campaign_id` in the body). */
export async function saveIvr(body) {
  return (await client.put('/campaign/ivr-edit', body)).data;
}
