import { AxiosError, type AxiosInstance, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';

/** What a mocked call answers: a status and body, or a network failure. */
export interface MockAnswer {
  status?: number;
  data?: unknown;
  network?: boolean;
}

export type MockHandler = (
  config: InternalAxiosRequestConfig
) => MockAnswer | undefined | void | Promise<MockAnswer | undefined | void>;

/**
 * Replace an axios instance's adapter. handler(config) returns { status, data } (or throws).
 * Statuses >= 400 reject like a real adapter would. Returns the list of seen configs.
 */
export function mockAdapter(instance: AxiosInstance, handler: MockHandler): InternalAxiosRequestConfig[] {
  const calls: InternalAxiosRequestConfig[] = [];
  instance.defaults.adapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
    calls.push(config);
    const result = (await handler(config)) ?? undefined;
    if (result && result.network) {
      throw new AxiosError('Network Error', 'ERR_NETWORK', config, {});
    }
    const response: AxiosResponse = {
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

/** The `index`th item of a list a test expects to be there (fails the test when it is not). */
export function nth<T>(items: readonly T[], index = 0): T {
  const item = items[index];
  if (item === undefined) throw new Error(`expected an item at ${index}, got ${items.length} items`);
  return item;
}

/** The JSON body a mocked call was sent. */
export function sentJson(config: InternalAxiosRequestConfig): unknown {
  return JSON.parse(String(config.data));
}

/** A JSON value kept in local storage (null when absent). */
export function storedJson(key: string): unknown {
  return JSON.parse(localStorage.getItem(key) ?? 'null');
}

export function paginated<T>(
  rows: T[],
  { total = rows.length, page = 1, perpage = 10 }: { total?: number; page?: number; perpage?: number } = {}
) {
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
