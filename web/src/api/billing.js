// Billing (spec §7 Tariffs, Rates; docs/api.md top-ups, invoices; Users' wallet; Numbers' payments).
import client, { unwrap, uploadClient } from './client';
import entityApi from './entity';

/** Tariffs: the admin's catalogue. An update is a PATCH here, not the PUT of other entities. */
export const tariffs = {
  ...entityApi('/tariff'),
  async update(id, body) {
    return unwrap(await client.patch(`/tariff/${id}`, body));
  }
};

/** Active tariffs `{id, name, currency}`, for pickers. */
export async function fetchActiveTariffs() {
  return unwrap(await client.get('/tariff/on'));
}

export const rates = entityApi('/rate');

/** A page of tariff `tariffId`'s rates; `params` matches the prefix or country. */
export async function fetchRatesOf(tariffId, { page = 1, perpage = 10, params = '', status = '' } = {}) {
  const query = { page, perpage, params, ...(status ? { status } : {}) };
  return unwrap(await client.get(`/rate/by/${tariffId}`, { params: query }));
}

/**
 * Import a rate-card CSV into tariff `tariffId` (all lines or none). `onProgress(fraction)` follows
 * the upload; the answer is `{rows, inserted, replaced}`, a refusal carries `errors` per line.
 */
export async function importRates(tariffId, file, { replace = false, onProgress } = {}) {
  const form = new FormData();
  form.append('file', file);
  const response = await uploadClient.post(`/rate/import/${tariffId}`, form, {
    params: replace ? { replace: true } : {},
    onUploadProgress: (e) => onProgress?.(e.total ? e.loaded / e.total : 0)
  });
  return response.data;
}

/** The admin credits a customer's wallet; the answer's message says when it was already credited. */
export async function addTopup(body) {
  return (await client.post('/topup/add', body)).data;
}

export async function fetchTopups({ page = 1, perpage = 10, params = '', user_id } = {}) {
  return unwrap(
    await client.get('/topup/details', { params: { page, perpage, params, ...(user_id ? { user_id } : {}) } })
  );
}

/** Wallet transactions, newest first (spec §3 wallet filters). */
export async function fetchWallet({ page = 1, perpage = 10, ...filters } = {}) {
  return unwrap(await client.get('/user/wall', { params: { page, perpage, ...filters } }));
}

/** The number payment report (spec §7 GET /number/ct): setup and monthly fees. */
export async function fetchNumberPayments({ page = 1, perpage = 10, ...filters } = {}) {
  return unwrap(await client.get('/number/ct', { params: { page, perpage, ...filters } }));
}

export async function fetchInvoices({ page = 1, perpage = 10, params = '', user_id } = {}) {
  return unwrap(
    await client.get('/invoice/details', { params: { page, perpage, params, ...(user_id ? { user_id } : {}) } })
  );
}

export async function fetchInvoice(id) {
  return unwrap(await client.get(`/invoice/${id}`));
}

/** The invoice as a PDF Blob. */
export async function downloadInvoicePdf(id) {
  return (await client.get(`/invoice/${id}/pdf`, { responseType: 'blob', headers: { Accept: 'application/pdf' } }))
    .data;
}

/** The admin invoices a customer's finished month ("YYYY-MM"); an invoiced month comes back as is. */
export async function generateInvoice(userId, month) {
  return (await client.post('/invoice/generate', { user_id: userId, month })).data;
}

/** Every row of a paged list (500 a page), e.g. for a CSV export or the totals of a period. */
export async function fetchAll(fetchPage, filters = {}, { perpage = 500, limit = 200000 } = {}) {
  const rows = [];
  for (let page = 1; ; page += 1) {
    const data = await fetchPage({ ...filters, page, perpage });
    const batch = Array.isArray(data?.data) ? data.data : [];
    rows.push(...batch);
    if (batch.length < perpage || rows.length >= Number(data?.total ?? 0) || rows.length >= limit) return rows;
  }
}
