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

/** Where the period's callers were from: `{by_region, by_country, by_line_type}` (admins, customers). */
export async function fetchCallRegions(type) {
  return unwrap(await client.get('/dashboard/call-region', { params: { type } }));
}
