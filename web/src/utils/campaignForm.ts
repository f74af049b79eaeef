// The campaign dialog's values <-> the API's campaign body (portal_api/schemas/campaigns.py).
import type { CampaignIn, CampaignOut, DuplicateAction, RoutingStrategy } from '../client';
import type { FieldErrors } from './validation';

export interface CampaignForm {
  name: string;
  user_id: string;
  strategy: RoutingStrategy;
  ring_timeout: string;
  buffer_seconds: string;
  duplicate_window_seconds: string;
  duplicate_action: DuplicateAction;
  record: boolean;
}

/** A target's place in a campaign, as typed. */
export interface TargetOrder {
  priority: string | number;
  weight: string | number;
}

export const STRATEGIES: readonly (readonly [RoutingStrategy, string])[] = [
  ['priority_weight', 'Priority, then weight'],
  ['round_robin', 'Round robin']
];
export const DUPLICATE_ACTIONS: readonly (readonly [DuplicateAction, string])[] = [
  ['allow', 'Route as usual'],
  ['other_buyer', 'Send to another buyer'],
  ['reject', 'Reject']
];

export function emptyCampaign(): CampaignForm {
  return {
    name: '',
    user_id: '',
    strategy: 'priority_weight',
    ring_timeout: '30',
    buffer_seconds: '60',
    duplicate_window_seconds: '86400',
    duplicate_action: 'allow',
    record: false
  };
}

export function campaignToForm(
  c: Pick<
    CampaignOut,
    | 'name'
    | 'user_id'
    | 'strategy'
    | 'ring_timeout'
    | 'buffer_seconds'
    | 'duplicate_window_seconds'
    | 'duplicate_action'
    | 'record'
  >
): CampaignForm {
  return {
    name: c.name,
    user_id: String(c.user_id ?? ''),
    strategy: c.strategy,
    ring_timeout: String(c.ring_timeout),
    buffer_seconds: String(c.buffer_seconds),
    duplicate_window_seconds: String(c.duplicate_window_seconds),
    duplicate_action: c.duplicate_action,
    record: Boolean(c.record)
  };
}

const RANGES = [
  ['ring_timeout', 5, 300, 'Ring timeout'],
  ['buffer_seconds', 0, 86400, 'Buffer'],
  ['duplicate_window_seconds', 0, 90 * 86400, 'Duplicate window']
] as const;

/** `{field: message}`; an admin creating a campaign names the customer it is for. */
export function validateCampaign(
  values: CampaignForm,
  { needsOwner = false }: { needsOwner?: boolean } = {}
): FieldErrors<keyof CampaignForm> {
  const errors: FieldErrors<keyof CampaignForm> = {};
  if (!values.name.trim()) errors.name = 'Name is required';
  if (needsOwner && !/^\d+$/.test(String(values.user_id).trim())) errors.user_id = 'Customer ID is required';
  for (const [field, low, high, label] of RANGES) {
    const v = String(values[field]).trim();
    if (!/^\d+$/.test(v) || Number(v) < low || Number(v) > high)
      errors[field] = `${label} must be a whole number from ${low} to ${high}`;
  }
  return errors;
}

/** The request body: a new campaign may name its owner (admin); an edit never moves it. */
export function campaignBody(
  values: CampaignForm,
  { editing = false, admin = false }: { editing?: boolean; admin?: boolean } = {}
): CampaignIn {
  const body: CampaignIn = {
    name: values.name.trim(),
    strategy: values.strategy,
    ring_timeout: Number(values.ring_timeout),
    buffer_seconds: Number(values.buffer_seconds),
    duplicate_window_seconds: Number(values.duplicate_window_seconds),
    duplicate_action: values.duplicate_action,
    record: Boolean(values.record)
  };
  if (!editing && admin) body.user_id = Number(values.user_id);
  return body;
}

/** A target's place in a campaign: `''` when fine, else what is wrong (the API's ranges). */
export function orderProblem({ priority, weight }: TargetOrder): string {
  const whole = (v: string | number, low: number, high: number): boolean =>
    /^\d+$/.test(String(v).trim()) && Number(v) >= low && Number(v) <= high;
  if (!whole(priority, 1, 100)) return 'Priority must be a whole number from 1 to 100';
  if (!whole(weight, 1, 1000)) return 'Weight must be a whole number from 1 to 1000';
  return '';
}
