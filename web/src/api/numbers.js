// Tracking numbers (spec §7 Numbers): the admin's pool and every customer's own numbers.
import client, { unwrap, uploadClient } from './client';
import entityApi from './entity';

export const numbers = entityApi('/number');

/** The unassigned pool, a page of it (customers see the active numbers they can take). */
export async function fetchPool({ page = 1, perpage = 10, params = '' } = {}) {
  return unwrap(await client.get('/number/zero', { params: { page, perpage, params } }));
}

/** A customer takes pool numbers, paying their setup fees (all or nothing; 402 when short). */
export async function takeNumbers(numberIds) {
  return (await client.post('/number/new', { number_ids: numberIds })).data;
}

/** The admin gives pool numbers to customer `userId`, charging their setup fees. */
export async function giveNumbers(userId, numberIds) {
  return (await client.post('/number/give', { user_id: userId, number_ids: numberIds })).data;
}

/** Back to the pool (the payments made stay in the ledger). */
export async function releaseNumbers(ids) {
  return (await client.delete('/number', { data: { ids } })).data;
}

/** Upload a numbers CSV; `onProgress(event)` follows the bytes sent. Resolves to the per-line report. */
export async function uploadNumbers(file, onProgress) {
  const form = new FormData();
  form.append('file', file);
  return unwrap(await uploadClient.post('/number/vcr', form, { onUploadProgress: onProgress }));
}

/** Past CSV uploads with their counts, a page of them; `params` matches the file name. */
export async function fetchUploads({ page = 1, perpage = 10, params = '' } = {}) {
  return unwrap(await client.get('/number/vcrs', { params: { page, perpage, params } }));
}
