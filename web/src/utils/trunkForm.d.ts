// Stand-in types for utils/trunkForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/trunkForm.ts lands.
import type { TrunkAuth, TrunkDirection, TrunkOut, TrunkTransport } from '../client';
import type { FieldErrors } from './validation';
export declare const CODECS: readonly ['ulaw', 'alaw', 'g722', 'g729', 'opus', 'gsm'];
export declare const DIRECTIONS: readonly TrunkDirection[];
export declare const TRANSPORTS: readonly TrunkTransport[];
export declare const AUTH_TYPES: readonly TrunkAuth[];
export type Codec = (typeof CODECS)[number];
export interface TrunkForm {
  name: string;
  direction: TrunkDirection;
  host: string;
  port: string;
  transport: TrunkTransport;
  auth_type: TrunkAuth;
  username: string;
  secret: string;
  dial_prefix: string;
  strip_digits: string;
  codecs: Codec[];
  max_channels: string;
  qualify: boolean;
  failover_order: string;
  vendor_id: number | null;
}
/** POST /trunk/add's and PUT /trunk/{id}'s body. */
export interface TrunkBody {
  name: string;
  direction: TrunkDirection;
  host: string;
  port: number;
  transport: TrunkTransport;
  auth_type: TrunkAuth;
  username: string | null;
  secret?: string | null;
  dial_prefix: string;
  strip_digits: number;
  codecs: Codec[];
  max_channels: number | null;
  qualify: boolean;
  failover_order: number;
  vendor_id: number | null;
}
type TrunkErrors = FieldErrors<keyof TrunkForm>;
export declare function emptyTrunk(): TrunkForm;
/** A listed trunk as dialog values; the secret is never sent back, so it starts blank. */
export declare function trunkToForm(trunk: TrunkOut): TrunkForm;
/** `{field: message}` for what is plainly wrong; `hasSecret` says a stored secret is kept when blank. */
export declare function validateTrunk(
  values: TrunkForm,
  {
    hasSecret
  }?: {
    hasSecret?: boolean;
  }
): TrunkErrors;
/** The request body. On an edit a blank secret is left out, so the stored one is kept. */
export declare function trunkBody(
  values: TrunkForm,
  {
    editing
  }?: {
    editing?: boolean;
  }
): TrunkBody;
export {};
