import { AxiosError } from 'axios';

/**
 * Replace an axios instance's adapter. handler(config) returns { status, data } (or throws).
 * Statuses >= 400 reject like a real adapter would. Returns the list of seen configs.
 */
export function mockAdapter(instance, handler) {
  const calls = [];
  instance.defaults.adapter = async (config) => {
    calls.push(config);
    const result = await handler(config);
    if (result && result.network) {
      throw new AxiosError('Network Error', 'ERR_NETWORK', config, {});
    }
    const response = {
      data: result?.data,
      status: result?.status ?? 200,
      statusText: '',
      headers: {},
      config,
      request: {}
    };
    if (response.status >= 400) {
      throw new AxiosError(
        `Request failed with status code ${response.status}`,
        'ERR_BAD_REQUEST',
        config,
        {},
        response
      );
    }
    return response;
  };
  return calls;
}

export function paginated(rows, { total = rows.length, page = 1, perpage = 10 } = {}) {
  return {
    data: rows,
    total,
    per_page: perpage,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perpage)),
    from: rows.length ? (page - 1) * perpage + 1 : null,
    to: rows.length ? (page - 1) * perpage + rows.length : null
  };
}
