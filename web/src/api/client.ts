// The HTTP transport of the portal (spec §7, §8).
// - calls go to the generated client (src/client, from the API's OpenAPI) through `http`, an axios
//   instance whose paths carry the '/api' prefix themselves
// - bearer token from local storage on every call; no timeout
// - any failure rejects with { baseURL, body, message, code } (spec §8)
// - 401 on a signed-in call clears local storage and sends the user to '/'
// File uploads use their own instance (`uploadHttp`): a 401 there is only logged.

import axios, { type AxiosError, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import { client as generated } from '../client/client.gen';
import { REQUEST_TIMEOUT } from '../config';
import { clearStorage, getToken } from '../utils/storage';
import { hardNavigate } from '../utils/navigation';

export const API_BASE: string = import.meta.env.VITE_API_BASE || '/api';
/** Where the API is served: API_BASE without its '/api' (the generated paths start with '/api'). */
const API_ORIGIN = API_BASE.replace(/\/api\/?$/, '');

/** The spec §8 error every failed call rejects with. */
export interface ApiError {
  baseURL: string;
  body: unknown;
  message: string;
  code: number;
  /** Field -> messages, on a 422 */
  errors?: Record<string, string[]>;
}

function requestBody(config: InternalAxiosRequestConfig | undefined): unknown {
  const data: unknown = config?.data;
  if (data === undefined || data === null) return null;
  if (typeof data === 'string') {
    try {
      return JSON.parse(data);
    } catch {
      return data;
    }
  }
  return data;
}

function serverBody(error: AxiosError): { message?: string; errors?: Record<string, string[]> } | undefined {
  const data = error.response?.data;
  return data && typeof data === 'object'
    ? (data as { message?: string; errors?: Record<string, string[]> })
    : undefined;
}

/** Turn any axios failure into the spec §8 error object. */
export function toApiError(error: unknown, baseURL: string = API_BASE): ApiError {
  const failure = (error ?? {}) as AxiosError;
  const body = serverBody(failure);
  const apiError: ApiError = {
    // The generated calls carry the prefix in their path, so their config's base is empty.
    baseURL: failure.config?.baseURL || baseURL,
    body: requestBody(failure.config),
    message: body?.message ?? failure.message ?? 'Request failed',
    code: failure.response?.status ?? 0
  };
  if (body?.errors) apiError.errors = body.errors;
  return apiError;
}

function attachToken(config: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  const token = getToken();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
}

function hadToken(config: InternalAxiosRequestConfig | undefined): boolean {
  return Boolean(config?.headers?.get('Authorization'));
}

/**
 * 401 in the main client: clear local storage and go to '/'.
 * A 401 to a call made without a token (a failed sign-in) is not a lost session: it only
 * rejects, so the sign-in page can show the server's message.
 */
function handleUnauthorized(error: AxiosError): void {
  if (error.response?.status === 401 && hadToken(error.config)) {
    clearStorage();
    hardNavigate('/');
  }
}

function logUnauthorized(error: AxiosError): void {
  if (error.response?.status === 401) console.log('Upload unauthorized (401)', serverBody(error)?.message ?? '');
}

function instance(onError: (error: AxiosError) => void): AxiosInstance {
  const made = axios.create({ baseURL: API_ORIGIN, timeout: REQUEST_TIMEOUT, headers: { Accept: 'application/json' } });
  made.interceptors.request.use(attachToken);
  made.interceptors.response.use(
    (response) => response,
    (error: AxiosError) => {
      onError(error);
      return Promise.reject(toApiError(error));
    }
  );
  return made;
}

/** The generated client's transport (axios decides the body's content type: JSON, or multipart). */
export const http = instance(handleUnauthorized);
/** Pass as `{ axios: uploadHttp }` to a generated upload call: a 401 there does not sign out. */
export const uploadHttp = instance(logUnauthorized);

generated.setConfig({ axios: http, throwOnError: true });

/** The `data` of a generated call's `{message, data}` envelope. */
export async function call<T>(request: Promise<{ data: { data: T } }>): Promise<T> {
  return (await request).data.data;
}
