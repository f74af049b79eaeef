// Live-call store: the single slice named `livecalls` (spec §3).
// The live WebSocket (store/liveSocket.js) writes into it; the header and the Live Calls page
// read from it. Before the socket's first message the unread count comes from
// GET /notification/unread-count.
import { useSyncExternalStore } from 'react';

const initialState = () => ({
  livecalls: [],
  callsCount: { all_calls: 0 },
  unread_notification_count: 0,
  // The customer's wallet as the feed last pushed it ({user_id, balance, currency}), or null.
  balance: null
});

let state = initialState();
const listeners = new Set();

function emit() {
  listeners.forEach((l) => l());
}

export function getLiveState() {
  return state;
}

function subscribeLive(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setUnreadNotificationCount(count) {
  const n = Number(count);
  state = { ...state, unread_notification_count: Number.isFinite(n) ? n : 0 };
  emit();
}

/** Apply one incoming live message: any of livecalls, callsCount, unread_notification_count, balance. */
export function applyLiveMessage(message) {
  if (!message || typeof message !== 'object') return;
  const next = { ...state };
  if ('livecalls' in message) next.livecalls = Array.isArray(message.livecalls) ? message.livecalls : [];
  if ('callsCount' in message) next.callsCount = { all_calls: 0, ...(message.callsCount || {}) };
  if ('unread_notification_count' in message) {
    const n = Number(message.unread_notification_count);
    next.unread_notification_count = Number.isFinite(n) ? n : 0;
  }
  if (message.balance && typeof message.balance === 'object') next.balance = message.balance;
  state = next;
  emit();
}

export function resetLive() {
  state = initialState();
  emit();
}

export function useLive(selector = (s) => s) {
  return selector(useSyncExternalStore(subscribeLive, getLiveState, getLiveState));
}

export const selectAllCalls = (s) => Number(s.callsCount?.all_calls ?? 0) || 0;
export const selectBalance = (s) => s.balance;
export const selectUnreadCount = (s) => Number(s.unread_notification_count ?? 0) || 0;
