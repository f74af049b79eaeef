import client, { unwrap } from './client';

export async function fetchUserDetails({ page = 1, perpage = 10, params = '' } = {}) {
  return unwrap(await client.get('/user/details', { params: { page, perpage, params } }));
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
