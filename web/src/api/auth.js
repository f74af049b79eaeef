import client, { unwrap } from './client';
import { KEYS, clearStorage, getItem, removeItem, setItem, setSession, toStoredUser } from '../utils/storage';
import { hardNavigate, reloadPage } from '../utils/navigation';
import { DASHBOARD_PATH } from '../config';

export async function login({ email, password }) {
  const data = unwrap(await client.post('/login', { email: String(email).trim(), password }));
  if (!data?.token || !data?.user)
    throw {
      baseURL: client.defaults.baseURL,
      body: { email },
      message: 'Sign-in failed: no session received.',
      code: 0
    };
  setSession(data.token, data.user);
  return data;
}

/** Asks for a reset link; resolves to the message to show (the same for any address). */
export async function forgotPassword(email) {
  const res = await client.post('/forgot-password', { email: String(email).trim() });
  return res.data?.message || 'Request sent.';
}

/** Sets a new password with the token of a reset link. */
export async function resetPassword(token, newPassword) {
  const res = await client.post('/reset-password', { token, new_password: newPassword });
  return res.data?.message || 'Password changed.';
}

/**
 * Signs up. Where the server mails a link to finish (202), resolves to { pending: true, message }
 * without a session; otherwise stores the new session and resolves to { token, user }.
 */
export async function register({ name, email, password, timezone }) {
  const res = await client.post('/register', {
    name: String(name).trim(),
    email: String(email).trim(),
    password,
    timezone
  });
  if (res.status === 202)
    return { pending: true, message: res.data?.message || 'Check your inbox to finish signing up.' };
  const data = unwrap(res);
  if (!data?.token || !data?.user)
    throw {
      baseURL: client.defaults.baseURL,
      body: { email },
      message: 'Registration failed: no session received.',
      code: 0
    };
  setSession(data.token, data.user);
  return data;
}

/** The page a sign-up mail links to: creates the account and stores its session. */
export async function confirmRegistration(token) {
  const data = unwrap(await client.post('/register/confirm', { token }));
  if (!data?.token || !data?.user)
    throw { baseURL: client.defaults.baseURL, body: null, message: 'Sign-up failed: no session received.', code: 0 };
  setSession(data.token, data.user);
  return data;
}

/** Spec §4: call the logout endpoint, then clear local storage and reload, whether or not it succeeded. */
export async function logout({ reload = reloadPage } = {}) {
  try {
    await client.post('/logout');
  } catch {
    // ignored on purpose
  } finally {
    clearStorage();
    reload();
  }
}

/** Admin acts as another user (spec §4). Saves the admin session, swaps in the new one, reloads on /dashboard. */
export async function impersonate(userId, { go = hardNavigate } = {}) {
  const data = unwrap(await client.post(`/user/impersonate/${userId}`));
  if (!data?.token || !data?.user)
    throw {
      baseURL: client.defaults.baseURL,
      body: null,
      message: 'Impersonation failed: no session received.',
      code: 0
    };
  setItem(KEYS.originalUser, getItem(KEYS.user) ?? '');
  setItem(KEYS.originalToken, getItem(KEYS.token) ?? '');
  setItem(KEYS.impersonatorId, String(data.impersonator_id ?? ''));
  setSession(data.token, toStoredUser(data.user));
  go(DASHBOARD_PATH);
  return data;
}

export const RETURN_MESSAGES = {
  missingId: 'Missing impersonator_id. Cannot return to admin.',
  noData: 'Failed to return to admin: No data received.',
  noSession: 'Failed to return to admin: Original session data missing.',
  failed: 'Failed to logout impersonated user'
};

const defaultNotify = (message) => window.alert(message);

/**
 * Back To Admin (spec §4, §5, §8). Returns true when the admin session was restored.
 */
export async function returnToAdmin({ notify = defaultNotify, go = hardNavigate } = {}) {
  const impersonatorId = getItem(KEYS.impersonatorId);
  if (!impersonatorId) {
    notify(RETURN_MESSAGES.missingId);
    return false;
  }
  try {
    const id = /^\d+$/.test(impersonatorId) ? Number(impersonatorId) : impersonatorId;
    const response = await client.post('/impersonate/return', { impersonator_id: id });
    const data = unwrap(response);
    if (!data || (typeof data === 'object' && Object.keys(data).length === 0)) {
      notify(RETURN_MESSAGES.noData);
      return false;
    }
    const originalUser = getItem(KEYS.originalUser);
    const originalToken = getItem(KEYS.originalToken);
    if (!originalUser || !originalToken) {
      notify(RETURN_MESSAGES.noSession);
      return false;
    }
    setItem(KEYS.user, originalUser);
    setItem(KEYS.token, originalToken);
    removeItem(KEYS.impersonatorId);
    removeItem(KEYS.originalUser);
    removeItem(KEYS.originalToken);
    go(DASHBOARD_PATH);
    return true;
  } catch {
    notify(RETURN_MESSAGES.failed);
    return false;
  }
}
