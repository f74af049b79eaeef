// Live calls as the page shows them: newest first, with how long each has been in its state.
import { formatSeconds } from './time';

/** "m:ss", or "h:mm:ss" past an hour, from an ISO time to now; "—" when the time is unreadable. */
/** A live call as the feed sends it (spec §7): only the fields the page reads are typed. */
export interface LiveCall {
  state?: string;
  started_at?: string | null;
  connected_at?: string | null;
}

export function elapsed(fromIso: string | null | undefined, nowMs: number = Date.now()): string {
  const from = Date.parse(fromIso ?? '');
  if (Number.isNaN(from)) return '—';
  return formatSeconds((nowMs - from) / 1000);
}

/** Talk time once connected, otherwise time since the call came in. */
export function callDuration(call: LiveCall, nowMs: number = Date.now()): string {
  return elapsed(call.state === 'connected' && call.connected_at ? call.connected_at : call.started_at, nowMs);
}

export function newestFirst<T extends LiveCall>(calls: readonly T[] | null | undefined): T[] {
  return [...(calls ?? [])].sort((a, b) => String(b.started_at ?? '').localeCompare(String(a.started_at ?? '')));
}
