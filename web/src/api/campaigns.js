// Campaigns (spec §7 Campaigns) and the routing dry run.
import client, { unwrap } from './client';

export async function fetchCampaigns({ page = 1, perpage = 10, params = '' } = {}) {
  return unwrap(await client.get('/campaign/details', { params: { page, perpage, params } }));
}

export async function addCampaign(body) {
  return unwrap(await client.post('/campaign/add', body));
}

export async function updateCampaign(id, body) {
  return unwrap(await client.put(`/campaign/${id}`, body));
}

export async function setCampaignStatus(id, status) {
  return unwrap(await client.patch(`/campaign/status/${id}`, { status }));
}

export async function deleteCampaign(id) {
  return (await client.delete(`/campaign/${id}`)).data;
}

/** Where a call from `caller` to `did` would go now, and why (writes nothing). */
export async function dryRun(did, caller) {
  return unwrap(await client.post('/routing/dry-run', { did, caller }));
}
