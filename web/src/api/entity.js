// The REST calls every catalogue entity has (spec §7): `{base}/details`, `/add`, `/{id}`,
// `/status/{id}`, and DELETE `/{id}`.
import client, { unwrap } from './client';

export default function entityApi(base) {
  return {
    /** A page: `{data, total}`; filters left empty are not sent. */
    async list({ page = 1, perpage = 10, params = '', ...filters } = {}) {
      const query = { page, perpage, params };
      for (const [key, value] of Object.entries(filters)) {
        if (value !== '' && value !== null && value !== undefined) query[key] = value;
      }
      return unwrap(await client.get(`${base}/details`, { params: query }));
    },
    async add(body) {
      return unwrap(await client.post(`${base}/add`, body));
    },
    async update(id, body) {
      return unwrap(await client.put(`${base}/${id}`, body));
    },
    async setStatus(id, status) {
      return unwrap(await client.patch(`${base}/status/${id}`, { status }));
    },
    async remove(id) {
      return (await client.delete(`${base}/${id}`)).data;
    }
  };
}
