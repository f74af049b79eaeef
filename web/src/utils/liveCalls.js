// Live calls as the page shows them: newest first, with how long each has been in its state.
import { formatSeconds } from './clock';

/** "m:ss", or "h:mm:ss" past an hour, from an ISO time to now; "—" when the time is unreadable. */
export function elapsed(fromIso, nowMs = Date.now()) {
  const from = Date.parse(fromIso ?? '');
  if (Number.isNaN(from)) return '—';
  return formatSeconds((nowMs - from) / 1000);
}

/** Talk time once connected, otherwise time since the call came in. */
export function callDuration(call, nowMs = Date.now()) {
  return elapsed(call.state === 'connected' && call.connected_at ? call.connected_at : call.started_at, nowMs);
}

export function newestFirst(calls) {
  return [...(calls ?? [])].sort((a, b) => String(b.started_at ?? '').localeCompare(String(a.started_at ?? '')));
}
