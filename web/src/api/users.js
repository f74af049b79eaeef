import client, { unwrap } from './client';
import entityApi from './entity';

/** The admin's users (spec §7 Users): details, add (a customer), update, status, delete. */
export const users = entityApi('/user');

/** Another administrator account. */
export async function addAdmin(body) {
  return unwrap(await client.post('/user/admin-user', body));
}

/** An existing customer (no numbers, buyers or history) becomes an administrator. */
export async function makeAdmin(id) {
  return unwrap(await client.post(`/user/admin/${id}`));
}

/** A new API token `{user_id, token}` for user `id`; the previous one stops working. */
export async function issueApiToken(id) {
  return unwrap(await client.put(`/user/token/${id}`));
}

export async function changePassword({ current_password, new_password }) {
  const response = await client.post('/change-password', { current_password, new_password });
  return response.data;
}

export async function fetchProfile() {
  return unwrap(await client.get('/profile'));
}

export async function updateProfile(fields) {
  return unwrap(await client.put('/profile', fields));
}

/** The admin audit (GET /user/audit): administrator actions on accounts, newest first. */
export async function fetchAdminAudit({ page = 1, perpage = 10, ...filters } = {}) {
  return unwrap(await client.get('/user/audit', { params: { page, perpage, ...filters } }));
}
