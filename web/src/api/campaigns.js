// Campaigns (spec §7 Campaigns) and the routing dry run.
import client, { unwrap, uploadClient } from './client';
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

/** A campaign's whisper: what its targets hear when they answer, before they are connected. */
export async function fetchWhisper(campaignId) {
  return unwrap(await client.get(`/campaign/whisper/${campaignId}`));
}

/** Turn the whisper off, or make it `text` (spoken by the server as it saves). */
export async function saveWhisper(campaignId, body) {
  return (await client.put(`/campaign/whisper/${campaignId}`, body)).data;
}

/** Make the whisper an uploaded recording (a WAV file; the server checks and converts it). */
export async function uploadWhisper(campaignId, file) {
  const form = new FormData();
  form.append('file', file);
  return (await uploadClient.post(`/campaign/whisper/${campaignId}/recording`, form)).data;
}

/** The audio the targets hear, as a Blob to play in the page. */
export async function whisperAudio(campaignId) {
  return (await client.get(`/campaign/whisper/${campaignId}/audio`, { responseType: 'blob' })).data;
}
