// Short lists of names for pickers (spec: people choose by name, never by id).
import client, { unwrap } from './client';

/** Every tariff `{id, name, currency, status}` (up to the API's page size), active ones for picking. */
export async function fetchTariffNames() {
  return unwrap(await client.get('/tariff/details', { params: { page: 1, perpage: 500 } }))?.data ?? [];
}

/** Active customers `{id, name, email}`. */
export async function fetchActiveCustomers() {
  return unwrap(await client.get('/user/on')) ?? [];
}

/** Every vendor `{id, name, status}` (up to the API's page size). */
export async function fetchVendorNames() {
  return unwrap(await client.get('/vendor/details', { params: { page: 1, perpage: 500 } }))?.data ?? [];
}
