// Live calls as the page shows them: newest first, with how long each has been in its state.

/** "m:ss", or "h:mm:ss" past an hour, from an ISO time to now; "—" when the time is unreadable. */
export function elapsed(fromIso, nowMs = Date.now()) {
  const from = Date.parse(fromIso ?? '');
  if (Number.isNaN(from)) return '—';
  const total = Math.max(0, Math.floor((nowMs - from) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Talk time once connected, otherwise time since the call came in. */
export function callDuration(call, nowMs = Date.now()) {
  return elapsed(call.state === 'connected' && call.connected_at ? call.connected_at : call.started_at, nowMs);
}

export function newestFirst(calls) {
  return [...(calls ?? [])].sort((a, b) => String(b.started_at ?? '').localeCompare(String(a.started_at ?? '')));
}
