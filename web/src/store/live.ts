// Live-call store: the single slice named `livecalls` (spec §3).
// The live WebSocket (store/liveSocket.ts) writes into it; the header and the Live Calls page
// read from it. Before the socket's first message the unread count comes from
// GET /notification/unread-count.
import { useSyncExternalStore } from 'react';
import type { Balance, LiveOut } from '../client';

export type LiveCallRow = LiveOut['livecalls'][number];

export interface LiveState {
  livecalls: LiveCallRow[];
  callsCount: { all_calls: number; [kind: string]: number };
  unread_notification_count: number;
  /** The customer's wallet as the feed last pushed it ({user_id, balance, currency}), or null. */
  balance: Balance | null;
}

/** One message of the live feed: any of its fields may be missing (spec §7). */
export interface LiveMessage {
  livecalls?: unknown;
  callsCount?: Record<string, number> | null;
  unread_notification_count?: unknown;
  balance?: Balance | null;
}

const initialState = (): LiveState => ({
  livecalls: [],
  callsCount: { all_calls: 0 },
  unread_notification_count: 0,
  balance: null
});

let state = initialState();
const listeners = new Set<() => void>();

function emit(): void {
  listeners.forEach((l) => l());
}

export function getLiveState(): LiveState {
  return state;
}

function subscribeLive(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function setUnreadNotificationCount(count: unknown): void {
  const n = Number(count);
  state = { ...state, unread_notification_count: Number.isFinite(n) ? n : 0 };
  emit();
}

/** Apply one incoming live message: any of livecalls, callsCount, unread_notification_count, balance. */
export function applyLiveMessage(message: LiveMessage | null | undefined): void {
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

export function resetLive(): void {
  state = initialState();
  emit();
}

export function useLive(): LiveState;
export function useLive<T>(selector: (s: LiveState) => T): T;
export function useLive<T>(selector?: (s: LiveState) => T): T | LiveState {
  const live = useSyncExternalStore(subscribeLive, getLiveState, getLiveState);
  return selector ? selector(live) : live;
}

export const selectAllCalls = (s: LiveState): number => Number(s.callsCount?.all_calls ?? 0) || 0;
export const selectBalance = (s: LiveState): Balance | null => s.balance;
export const selectUnreadCount = (s: LiveState): number => Number(s.unread_notification_count ?? 0) || 0;
