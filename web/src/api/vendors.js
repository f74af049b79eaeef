// Vendors (admin): the carriers numbers and inbound trunks come from, and what each supplies.
import client, { unwrap } from './client';
import entityApi from './entity';

export const vendors = entityApi('/vendor');

/** A page of the numbers vendor `vendorId` supplies (with customer and campaign names). */
export async function fetchVendorNumbers(vendorId, { page = 1, perpage = 10 } = {}) {
  return unwrap(await client.get('/number/details', { params: { page, perpage, vendor_id: vendorId } }));
}

/** A page of the trunks vendor `vendorId` supplies. */
export async function fetchVendorTrunks(vendorId, { page = 1, perpage = 10 } = {}) {
  return unwrap(await client.get('/trunk/details', { params: { page, perpage, vendor_id: vendorId } }));
}
