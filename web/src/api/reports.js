// The call report (spec §7 Reports).
import client, { unwrap } from './client';

export async function fetchReport({ page = 1, perpage = 10, ...filters } = {}) {
  return unwrap(await client.get('/report', { params: { page, perpage, ...filters } }));
}

/** The same calls as a CSV file (all pages): resolves to a Blob. */
export async function downloadReport(filters = {}) {
  const response = await client.post('/report/save', null, {
    params: filters,
    responseType: 'blob',
    headers: { Accept: 'text/csv' }
  });
  return response.data;
}

/** A recorded call's audio (WAV) as a Blob; the player needs it fetched with the token. */
export async function fetchRecording(callId) {
  const response = await client.get(`/report/recording/${callId}`, {
    responseType: 'blob',
    headers: { Accept: 'audio/wav' }
  });
  return response.data;
}

/** The signed-in buyer's calls (filters in the body, as the spec's buyer report takes them). */
export async function fetchBuyerReport({ page = 1, perpage = 10, after, ...filters } = {}) {
  delete filters.params; // a list's search box: not one of this report's filters
  const params = after ? { page, perpage, after } : { page, perpage };
  return unwrap(await client.post('/buyer/buyer-report', filters, { params }));
}
