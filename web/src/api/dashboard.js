// The dashboard (spec §7 Reports and dashboard).
import client, { unwrap } from './client';

export async function fetchCallCounts(type) {
  return unwrap(await client.get('/dashboard/call', { params: { type } }));
}

export async function fetchCallDetail(type) {
  return unwrap(await client.get('/dashboard/call-detail', { params: { type } }));
}

export async function fetchCustomerCounts() {
  return unwrap(await client.get('/dashboard/CustomerCounts'));
}
