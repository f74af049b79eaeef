// The one HTTP client of the portal (spec §7, §8).
// - base '/api' (override with VITE_API_BASE), no timeout
// - bearer token from local storage on every call
// - any failure rejects with { baseURL, body, message, code } (spec §8)
// - 401 on a signed-in call clears local storage and sends the user to '/'
// A separate multipart client is used for file uploads; it only logs a 401.

import axios from 'axios';
import { REQUEST_TIMEOUT } from '../config';
import { clearStorage, getToken } from '../utils/storage';
import { hardNavigate } from '../utils/navigation';

export const API_BASE = (import.meta.env && import.meta.env.VITE_API_BASE) || '/api';

function requestBody(config) {
  const data = config?.data;
  if (data === undefined || data === null) return data ?? null;
  if (typeof data === 'string') {
    try {
      return JSON.parse(data);
    } catch {
      return data;
    }
  }
  return data;
}

/** Turn any axios failure into the spec §8 error object. */
export function toApiError(error, baseURL = API_BASE) {
  const response = error?.response;
  const serverMessage = response?.data && typeof response.data === 'object' ? response.data.message : undefined;
  const apiError = {
    baseURL: error?.config?.baseURL ?? baseURL,
    body: requestBody(error?.config),
    message: serverMessage ?? error?.message ?? 'Request failed',
    code: response?.status ?? 0
  };
  if (response?.data && typeof response.data === 'object' && response.data.errors) {
    apiError.errors = response.data.errors;
  }
  return apiError;
}

function attachToken(config) {
  const token = getToken();
  if (token) {
    config.headers = config.headers ?? {};
    if (typeof config.headers.set === 'function') config.headers.set('Authorization', `Bearer ${token}`);
    else config.headers.Authorization = `Bearer ${token}`;
  }
  return config;
}

function hadToken(config) {
  const headers = config?.headers;
  if (!headers) return false;
  const value = typeof headers.get === 'function' ? headers.get('Authorization') : headers.Authorization;
  return Boolean(value);
}

/**
 * 401 in the main client: clear local storage and go to '/'.
 * A 401 to a call made without a token (a failed sign-in) is not a lost session: it only
 * rejects, so the sign-in page can show the server's message.
 */
function handleUnauthorized(error) {
  if (error?.response?.status === 401 && hadToken(error.config)) {
    clearStorage();
    hardNavigate('/');
    return true;
  }
  return false;
}

export const client = axios.create({
  baseURL: API_BASE,
  timeout: REQUEST_TIMEOUT,
  headers: { 'Content-Type': 'application/json', Accept: 'application/json' }
});

client.interceptors.request.use(attachToken);
client.interceptors.response.use(
  (response) => response,
  (error) => {
    handleUnauthorized(error);
    return Promise.reject(toApiError(error));
  }
);

export const uploadClient = axios.create({
  baseURL: API_BASE,
  timeout: REQUEST_TIMEOUT,
  headers: { 'Content-Type': 'multipart/form-data', Accept: 'application/json' }
});

uploadClient.interceptors.request.use(attachToken);
uploadClient.interceptors.response.use(
  (response) => response,
  (error) => {
    if (error?.response?.status === 401) console.log('Upload unauthorized (401)', error?.response?.data?.message ?? '');
    return Promise.reject(toApiError(error));
  }
);

/** Unwrap the {message, data} envelope. */
export const unwrap = (response) => response?.data?.data;

export default client;
