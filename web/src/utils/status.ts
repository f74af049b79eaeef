// Chip colours for the statuses the API returns.

/** The MUI Chip colours these helpers pick from. */
export type ChipColor = 'default' | 'success' | 'error' | 'warning' | 'info';

const CALL_STATE_COLORS: Record<string, ChipColor> = { ringing: 'warning', ivr: 'info', connected: 'success' };

/** Catalogue rows (users, trunks...): active is green, inactive or blocked is red. */
export function statusColor(status: string | number | null | undefined): ChipColor {
  const s = String(status ?? '').toLowerCase();
  if (s === 'active' || s === '1') return 'success';
  if (s === 'inactive' || s === 'blocked' || s === 'suspended' || s === '0') return 'error';
  return 'default';
}

/** A trunk's endpoint as the PBX bridge reports it ("Reachable (12 ms)", "Unreachable", ...). */
export function endpointColor(endpointStatus: string | null | undefined): ChipColor {
  const s = String(endpointStatus ?? '');
  if (s.startsWith('Reachable')) return 'success';
  if (s === 'Unreachable') return 'error';
  if (s === 'Not loaded') return 'warning';
  return 'default';
}

/** A live call's state: ringing, in the IVR, or talking. */
export function callStateColor(state: string | null | undefined): ChipColor {
  return CALL_STATE_COLORS[state ?? ''] ?? 'default';
}
