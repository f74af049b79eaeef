// The block dialog's values <-> the API's block body (portal_api/schemas/blocks.py): a caller's
// whole number, or the leading digits of a range; the admin's blocks may cover every customer.
import type { BlockMatch, BlockOut } from '../client';
import type { FieldErrors } from './validation';

export const MATCH_TYPES: readonly (readonly [BlockMatch, string])[] = [
  ['exact', 'This number'],
  ['prefix', 'Numbers starting with']
];

export interface BlockForm {
  pattern: string;
  match_type: BlockMatch;
  reason: string;
  user_id: string;
}

/** What a save sends: POST /block/add's or PUT /block/{id}'s body. */
export interface BlockBody {
  pattern: string;
  match_type: BlockMatch;
  reason: string | null;
  user_id?: number;
}

export function emptyBlock(): BlockForm {
  return { pattern: '', match_type: 'exact', reason: '', user_id: '' };
}

export function blockToForm(b: Pick<BlockOut, 'pattern' | 'match_type' | 'reason' | 'user_id'>): BlockForm {
  return {
    pattern: b.pattern,
    match_type: b.match_type,
    reason: b.reason ?? '',
    user_id: b.user_id ? String(b.user_id) : ''
  };
}

/** `{field: message}`; digits with an optional '+', spaced or dashed the way people type them. */
export function validateBlock(values: BlockForm): FieldErrors<keyof BlockForm> {
  const errors: FieldErrors<keyof BlockForm> = {};
  const pattern = values.pattern.replace(/[\s().-]/g, '');
  if (!pattern) errors.pattern = 'Number is required';
  else if (!/^\+?\d{1,15}$/.test(pattern)) errors.pattern = 'Digits only (with or without +), at most 15';
  if (values.reason.length > 255) errors.reason = 'Reason must be at most 255 characters';
  if (values.user_id.trim() && !/^\d+$/.test(values.user_id.trim()))
    errors.user_id = 'A customer ID, or empty for every customer';
  return errors;
}

/** A new block of the admin's names its customer, or none for a block on every customer. */
export function blockBody(
  values: BlockForm,
  { editing = false, admin = false }: { editing?: boolean; admin?: boolean } = {}
): BlockBody {
  const body: BlockBody = {
    pattern: values.pattern.trim(),
    match_type: values.match_type,
    reason: values.reason.trim() || null
  };
  if (!editing && admin && values.user_id.trim()) body.user_id = Number(values.user_id);
  return body;
}

/** Who a block covers: "Every customer" for the admin's global ones. */
export const blockScope = (row: Pick<BlockOut, 'user_id'>): string =>
  row.user_id ? `Customer ${row.user_id}` : 'Every customer';
