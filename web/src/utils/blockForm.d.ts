// Stand-in types for utils/blockForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/blockForm.ts lands.
import type { BlockMatch, BlockOut } from '../client';
import type { FieldErrors } from './validation';
export declare const MATCH_TYPES: readonly (readonly [BlockMatch, string])[];
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
export declare function emptyBlock(): BlockForm;
export declare function blockToForm(b: Pick<BlockOut, 'pattern' | 'match_type' | 'reason' | 'user_id'>): BlockForm;
/** `{field: message}`; digits with an optional '+', spaced or dashed the way people type them. */
export declare function validateBlock(values: BlockForm): FieldErrors<keyof BlockForm>;
/** A new block of the admin's names its customer, or none for a block on every customer. */
export declare function blockBody(
  values: BlockForm,
  {
    editing,
    admin
  }?: {
    editing?: boolean;
    admin?: boolean;
  }
): BlockBody;
/** Who a block covers: "Every customer" for the admin's global ones. */
export declare const blockScope: (row: Pick<BlockOut, 'user_id'>) => string;
