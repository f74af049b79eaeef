// SIP trunks (spec §7 Trunks): admin only.
import client, { unwrap } from './client';

export async function fetchTrunks({ page = 1, perpage = 10, params = '', direction = '' } = {}) {
  const query = { page, perpage, params };
  if (direction) query.direction = direction;
  return unwrap(await client.get('/trunk/details', { params: query }));
}

export async function addTrunk(body) {
  return unwrap(await client.post('/trunk/add', body));
}

export async function updateTrunk(id, body) {
  return unwrap(await client.put(`/trunk/${id}`, body));
}

export async function setTrunkStatus(id, status) {
  return unwrap(await client.patch(`/trunk/status/${id}`, { status }));
}

export async function deleteTrunk(id) {
  return (await client.delete(`/trunk/${id}`)).data;
}
