import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../utils/navigation', () => ({ hardNavigate: vi.fn(), reloadPage: vi.fn() }));

import { hardNavigate } from '../utils/navigation';
import { API_BASE, call, http, toApiError, uploadHttp } from '../api/client';
import { campaignsDetails } from '../client';
import { mockAdapter, nth } from './helpers';

describe('HTTP client (spec §7, §8)', () => {
  let original: typeof http.defaults.adapter;
  let originalUpload: typeof uploadHttp.defaults.adapter;
  beforeEach(() => {
    original = http.defaults.adapter;
    originalUpload = uploadHttp.defaults.adapter;
    vi.mocked(hardNavigate).mockClear();
  });
  afterEach(() => {
    http.defaults.adapter = original;
    uploadHttp.defaults.adapter = originalUpload;
  });

  it('uses /api as base (carried by the generated paths) and no timeout', () => {
    expect(API_BASE).toBe('/api');
    expect(http.defaults.baseURL).toBe('');
    expect(http.defaults.timeout).toBe(0);
  });

  it('sends the bearer token from local storage', async () => {
    localStorage.setItem('token', 'abc');
    const calls = mockAdapter(http, () => ({ data: { message: 'ok', data: 1 } }));
    await http.get('/api/report');
    expect(nth(calls).headers.get('Authorization')).toBe('Bearer abc');
  });

  it('sends no Authorization header without a token', async () => {
    const calls = mockAdapter(http, () => ({ data: { message: 'ok', data: 1 } }));
    await http.get('/api/server-time');
    expect(nth(calls).headers.get('Authorization')).toBeFalsy();
  });

  it('rejects with {baseURL, body, message, code}', async () => {
    localStorage.setItem('token', 'abc');
    mockAdapter(http, () => ({
      status: 422,
      data: { message: 'The name is required.', errors: { name: ['The name is required.'] } }
    }));
    const err = await http.post('/api/campaign/add', { name: '', user_id: 3 }).catch((e) => e);
    expect(err).toMatchObject({
      baseURL: '/api',
      body: { name: '', user_id: 3 },
      message: 'The name is required.',
      code: 422
    });
    expect(err.errors).toEqual({ name: ['The name is required.'] });
  });

  it('uses the transport message and code 0 on a network failure', async () => {
    mockAdapter(http, () => ({ network: true }));
    const err = await http.get('/api/report').catch((e) => e);
    expect(err).toMatchObject({ baseURL: '/api', body: null, message: 'Network Error', code: 0 });
  });

  it('409 and 500 keep the server message', async () => {
    localStorage.setItem('token', 'abc');
    mockAdapter(http, () => ({ status: 409, data: { message: 'That email is already registered.' } }));
    await expect(http.post('/api/register', { email: 'a@b.co' })).rejects.toMatchObject({
      code: 409,
      message: 'That email is already registered.'
    });
  });

  it('401 on a signed-in call clears local storage and goes to /', async () => {
    localStorage.setItem('token', 'abc');
    localStorage.setItem('user', '{"name":"x"}');
    localStorage.setItem('themeMode', 'light');
    mockAdapter(http, () => ({ status: 401, data: { message: 'Session ended.' } }));
    const err = await http.get('/api/report').catch((e) => e);
    expect(err).toMatchObject({ code: 401, message: 'Session ended.' });
    expect(localStorage.length).toBe(0);
    expect(hardNavigate).toHaveBeenCalledWith('/');
  });

  it('401 to a call without a token (failed sign-in) only rejects', async () => {
    localStorage.setItem('themeMode', 'light');
    mockAdapter(http, () => ({ status: 401, data: { message: 'The email or password is incorrect.' } }));
    await expect(http.post('/api/login', { email: 'a@b.co', password: 'x' })).rejects.toMatchObject({
      code: 401,
      message: 'The email or password is incorrect.',
      body: { email: 'a@b.co', password: 'x' }
    });
    expect(localStorage.getItem('themeMode')).toBe('light');
    expect(hardNavigate).not.toHaveBeenCalled();
  });

  it('the upload transport only logs a 401', async () => {
    localStorage.setItem('token', 'abc');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const calls = mockAdapter(uploadHttp, () => ({ status: 401, data: { message: 'Session ended.' } }));
    const form = new FormData();
    form.append('file', new Blob(['a,b']), 'n.csv');
    const err = await uploadHttp.post('/api/number/vcr', form).catch((e) => e);
    expect(err).toMatchObject({ baseURL: '/api', code: 401, message: 'Session ended.' });
    expect(nth(calls).headers.get('Authorization')).toBe('Bearer abc');
    expect(log).toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBe('abc');
    expect(hardNavigate).not.toHaveBeenCalled();
  });

  it('toApiError works on a bare error', () => {
    expect(toApiError(new Error('boom'))).toEqual({ baseURL: '/api', body: null, message: 'boom', code: 0 });
  });

  it('sends a generated call to its /api path with the token, and unwraps its envelope', async () => {
    localStorage.setItem('token', 'abc');
    const calls = mockAdapter(http, () => ({ data: { message: 'OK', data: { data: [], total: 0 } } }));
    const page = await call(campaignsDetails({ query: { page: 2, perpage: 10 } }));
    expect(page).toEqual({ data: [], total: 0 });
    expect(nth(calls).url).toBe('/api/campaign/details?page=2&perpage=10');
    expect(nth(calls).headers.get('Authorization')).toBe('Bearer abc');
  });

  it('a generated call fails with the spec §8 error, and a 401 with a token signs out', async () => {
    localStorage.setItem('token', 'abc');
    mockAdapter(http, () => ({ status: 401, data: { message: 'Session ended.' } }));
    const err = await call(campaignsDetails()).catch((e) => e);
    expect(err).toMatchObject({ baseURL: '/api', message: 'Session ended.', code: 401 });
    expect(hardNavigate).toHaveBeenCalledWith('/');
  });
});
