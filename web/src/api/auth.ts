// The session calls (spec §4): sign-in, sign-up, password reset, sign-out and impersonation, on the
// generated client; each one that opens a session stores it (utils/storage.ts).
import { call, API_BASE, type ApiError } from './client';
import {
  impersonationReturnToAdmin,
  impersonationStart,
  sessionConfirmRegistration,
  sessionForgotPassword,
  sessionLogin,
  sessionLogout,
  sessionRegister,
  sessionResetPassword,
  type Impersonating,
  type RegisterIn,
  type SignedIn
} from '../client';
import { KEYS, clearStorage, getItem, removeItem, setItem, setSession, toStoredUser } from '../utils/storage';
import { hardNavigate, reloadPage } from '../utils/navigation';
import { DASHBOARD_PATH } from '../config';

type TimeZone = NonNullable<RegisterIn['timezone']>;

export interface Credentials {
  email: string;
  password: string;
}

export interface SignUp extends Credentials {
  name: string;
  timezone: string;
}

/** A sign-up the server finishes by mail (202): no session yet. */
export interface PendingSignUp {
  pending: true;
  message: string;
}

/** The spec §8 error for an answer that should have opened a session and did not. */
function noSession(message: string, body: unknown): ApiError {
  return { baseURL: API_BASE, body, message, code: 0 };
}

/** An answer that opened a session: a token and the user (what every sign-in answer carries). */
function hasSession(data: unknown): data is SignedIn {
  return (
    typeof data === 'object' &&
    data !== null &&
    'token' in data &&
    Boolean(data.token) &&
    'user' in data &&
    Boolean(data.user)
  );
}

export async function login({ email, password }: Credentials): Promise<SignedIn> {
  const data = await call(sessionLogin({ body: { email: String(email).trim(), password } }));
  if (!hasSession(data)) throw noSession('Sign-in failed: no session received.', { email });
  setSession(data.token, data.user);
  return data;
}

/** Asks for a reset link; resolves to the message to show (the same for any address). */
export async function forgotPassword(email: string): Promise<string> {
  const res = await sessionForgotPassword({ body: { email: String(email).trim() } });
  return res.data?.message || 'Request sent.';
}

/** Sets a new password with the token of a reset link. */
export async function resetPassword(token: string, newPassword: string): Promise<string> {
  const res = await sessionResetPassword({ body: { token, new_password: newPassword } });
  return res.data?.message || 'Password changed.';
}

/**
 * Signs up. Where the server mails a link to finish (202), resolves to { pending: true, message }
 * without a session; otherwise stores the new session and resolves to { token, user }.
 */
export async function register({ name, email, password, timezone }: SignUp): Promise<SignedIn | PendingSignUp> {
  const res = await sessionRegister({
    body: {
      name: String(name).trim(),
      email: String(email).trim(),
      password,
      // Picked from the browser's list of zones (timeZoneList); the server refuses one it lacks.
      timezone: timezone as TimeZone
    }
  });
  if (res.status === 202) {
    // The 202 answer is the envelope without data; the OpenAPI leaves its schema open (unknown).
    const accepted = res.data;
    const message = typeof accepted === 'object' && accepted !== null && 'message' in accepted ? accepted.message : '';
    return {
      pending: true,
      message: typeof message === 'string' && message ? message : 'Check your inbox to finish signing up.'
    };
  }
  // The 201 answer's envelope; typed unknown beside the open 202 one, so its session is checked.
  const created = res.data;
  const data = typeof created === 'object' && created !== null && 'data' in created ? created.data : undefined;
  if (!hasSession(data)) throw noSession('Registration failed: no session received.', { email });
  setSession(data.token, data.user);
  return data;
}

/** The page a sign-up mail links to: creates the account and stores its session. */
export async function confirmRegistration(token: string): Promise<SignedIn> {
  const data = await call(sessionConfirmRegistration({ body: { token } }));
  if (!hasSession(data)) throw noSession('Sign-up failed: no session received.', null);
  setSession(data.token, data.user);
  return data;
}

/** Spec §4: call the logout endpoint, then clear local storage and reload, whether or not it succeeded. */
export async function logout({ reload = reloadPage }: { reload?: () => void } = {}): Promise<void> {
  try {
    await sessionLogout();
  } catch {
    // ignored on purpose
  } finally {
    clearStorage();
    reload();
  }
}

/** Admin acts as another user (spec §4). Saves the admin session, swaps in the new one, reloads on /dashboard. */
export async function impersonate(
  userId: number,
  { go = hardNavigate }: { go?: (url: string) => void } = {}
): Promise<Impersonating> {
  const data: Impersonating | null = await call(impersonationStart({ path: { id: userId } }));
  if (!data?.token || !data?.user) throw noSession('Impersonation failed: no session received.', null);
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
} as const;

const defaultNotify = (message: string): void => window.alert(message);

export interface ReturnOptions {
  notify?: (message: string) => void;
  go?: (url: string) => void;
}

/**
 * Back To Admin (spec §4, §5, §8). Returns true when the admin session was restored.
 */
export async function returnToAdmin({
  notify = defaultNotify,
  go = hardNavigate
}: ReturnOptions = {}): Promise<boolean> {
  const impersonatorId = getItem(KEYS.impersonatorId);
  if (!impersonatorId) {
    notify(RETURN_MESSAGES.missingId);
    return false;
  }
  try {
    // The id this module stored; anything else is not a number and the server refuses it (422).
    const data: unknown = await call(impersonationReturnToAdmin({ body: { impersonator_id: Number(impersonatorId) } }));
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
