// Stand-in types for utils/liveCalls.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/liveCalls.ts lands.
/** "m:ss", or "h:mm:ss" past an hour, from an ISO time to now; "—" when the time is unreadable. */
/** A live call as the feed sends it (spec §7): only the fields the page reads are typed. */
export interface LiveCall {
  state?: string;
  started_at?: string | null;
  connected_at?: string | null;
}
export declare function elapsed(fromIso: string | null | undefined, nowMs?: number): string;
/** Talk time once connected, otherwise time since the call came in. */
export declare function callDuration(call: LiveCall, nowMs?: number): string;
export declare function newestFirst<T extends LiveCall>(calls: readonly T[] | null | undefined): T[];
