// Targets (spec §7 Targets) and the campaign-target links that order them (`/camp/*`).
import client, { unwrap } from './client';
import entityApi from './entity';

export const targets = entityApi('/target');

/** A campaign's targets in dialling order: `{target_id, name, destination, priority, weight, ...}`. */
export async function fetchAssignedTargets(campaignId) {
  return unwrap(await client.get('/target/getAssignedTargetsForCampaign', { params: { campaign_id: campaignId } }));
}

/** The campaign customer's active targets not assigned to it yet. */
export async function fetchAssignableTargets(campaignId) {
  return unwrap(await client.post('/target/getTargetsForCampaign', { campaign_id: campaignId }));
}

export async function assignTarget(campaignId, { target_id, priority, weight }) {
  return unwrap(
    await client.post('/camp/add', { campaign_id: campaignId, targets: [{ target_id, priority, weight }] })
  );
}

export async function unassignTarget(campaignId, targetId) {
  return (await client.post('/camp/rc', { campaign_id: campaignId, target_id: targetId })).data;
}

export async function setTargetOrder(campaignId, targetId, { priority, weight }) {
  return (await client.patch(`/camp/priority/${targetId}`, { campaign_id: campaignId, priority, weight })).data;
}
