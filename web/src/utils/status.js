// Chip colours for the statuses the API returns.

/** Catalogue rows (users, trunks...): active is green, inactive or blocked is red. */
export function statusColor(status) {
  const s = String(status ?? '').toLowerCase();
  if (s === 'active' || s === '1') return 'success';
  if (s === 'inactive' || s === 'blocked' || s === 'suspended' || s === '0') return 'error';
  return 'default';
}

/** A trunk's endpoint as the PBX bridge reports it ("Reachable (12 ms)", "Unreachable", ...). */
export function endpointColor(endpointStatus) {
  const s = String(endpointStatus ?? '');
  if (s.startsWith('Reachable')) return 'success';
  if (s === 'Unreachable') return 'error';
  if (s === 'Not loaded') return 'warning';
  return 'default';
}

/** A live call's state: ringing, in the IVR, or talking. */
export function callStateColor(state) {
  return { ringing: 'warning', ivr: 'info', connected: 'success' }[state] ?? 'default';
}
