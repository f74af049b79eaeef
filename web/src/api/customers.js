// Customers by name: the active ones for pickers, and the names behind the ids a list carries.
import client, { unwrap } from './client';

/** Active customers `{id, name, email}`, by name (admin). */
export async function fetchActiveCustomers() {
  return unwrap(await client.get('/user/on'));
}

export async function fetchUser(id) {
  return unwrap(await client.get(`/user/id/${id}`));
}

/** Every customer on tariff `tariffId` (admin), read through the user list. */
export async function fetchCustomersOfTariff(tariffId) {
  const found = [];
  for (let page = 1; ; page += 1) {
    const data = unwrap(await client.get('/user/details', { params: { page, perpage: 500, role: 2 } }));
    const rows = Array.isArray(data?.data) ? data.data : [];
    found.push(...rows.filter((u) => u.tariff_id === tariffId));
    if (rows.length < 500) return found;
  }
}
