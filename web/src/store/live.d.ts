// Stand-in types for store/live.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once store/live.ts lands.
import type { Balance, LiveOut } from '../client';
export type LiveCallRow = LiveOut['livecalls'][number];
export interface LiveState {
  livecalls: LiveCallRow[];
  callsCount: {
    all_calls: number;
    [kind: string]: number;
  };
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
export declare function getLiveState(): LiveState;
export declare function setUnreadNotificationCount(count: unknown): void;
/** Apply one incoming live message: any of livecalls, callsCount, unread_notification_count, balance. */
export declare function applyLiveMessage(message: LiveMessage | null | undefined): void;
export declare function resetLive(): void;
export declare function useLive(): LiveState;
export declare function useLive<T>(selector: (s: LiveState) => T): T;
export declare const selectAllCalls: (s: LiveState) => number;
export declare const selectBalance: (s: LiveState) => Balance | null;
export declare const selectUnreadCount: (s: LiveState) => number;
