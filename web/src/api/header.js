// Calls made by the signed-in shell: money settings, server time, balance, notifications.
import client, { unwrap } from './client';

/** How money is shown: `{currency, low_balance_threshold}` (see store/money.js). */
export async function fetchConfig() {
  return unwrap(await client.get('/config'));
}

export async function fetchServerTime() {
  return unwrap(await client.get('/server-time'));
}

/** Balance of one user: the first data row carries `balance`. */
export async function fetchBalance(userId) {
  const rows = unwrap(await client.get(`/user/balance/${userId}`));
  const first = Array.isArray(rows) ? rows[0] : rows;
  return first?.balance ?? null;
}

export async function fetchNotifications(page, perpage) {
  return unwrap(await client.get('/notification/notification', { params: { page, perpage } }));
}

/** Marks every notification of the signed-in user read (opening the bell does). */
export async function markNotificationsRead() {
  return unwrap(await client.post('/notification/read-all'));
}

export async function fetchUnreadCount() {
  const data = unwrap(await client.get('/notification/unread-count'));
  return Number(data?.unread_notification_count ?? 0);
}
