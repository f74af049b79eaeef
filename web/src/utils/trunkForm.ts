// The trunk dialog's values <-> the API's trunk body (portal_api/schemas/trunks.py).
// The server checks everything again; these checks only save a round trip on obvious slips.

import type { TrunkAuth, TrunkDirection, TrunkOut, TrunkTransport } from '../client';
import type { FieldErrors } from './validation';

export const CODECS = ['ulaw', 'alaw', 'g722', 'g729', 'opus', 'gsm'] as const;
export const DIRECTIONS: readonly TrunkDirection[] = ['outbound', 'inbound'];
export const TRANSPORTS: readonly TrunkTransport[] = ['udp', 'tcp', 'tls'];
export const AUTH_TYPES: readonly TrunkAuth[] = ['ip', 'digest'];

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

const isCodec = (codec: string): codec is Codec => CODECS.some((known) => known === codec);

/** `value` when it is one of `choices` (the API's listing types these as plain text), else `fallback`. */
function oneOf<T extends string>(choices: readonly T[], value: string, fallback: T): T {
  return choices.find((choice) => choice === value) ?? fallback;
}

export function emptyTrunk(): TrunkForm {
  return {
    name: '',
    direction: 'outbound',
    host: '',
    port: '5060',
    transport: 'udp',
    auth_type: 'ip',
    username: '',
    secret: '',
    dial_prefix: '',
    strip_digits: '0',
    codecs: ['ulaw', 'alaw'],
    max_channels: '',
    qualify: true,
    failover_order: '0',
    vendor_id: null
  };
}

/** A listed trunk as dialog values; the secret is never sent back, so it starts blank. */
/** The fields of a listed trunk the dialog edits. */
export type EditedTrunk = Pick<
  TrunkOut,
  | 'name'
  | 'direction'
  | 'host'
  | 'port'
  | 'transport'
  | 'auth_type'
  | 'username'
  | 'dial_prefix'
  | 'strip_digits'
  | 'codecs'
  | 'max_channels'
  | 'qualify'
  | 'failover_order'
> &
  Partial<Pick<TrunkOut, 'vendor_id'>>;

export function trunkToForm(trunk: EditedTrunk): TrunkForm {
  const text = (v: string | number | null | undefined): string => (v === null || v === undefined ? '' : String(v));
  return {
    ...emptyTrunk(),
    name: trunk.name,
    direction: oneOf(DIRECTIONS, trunk.direction, 'outbound'),
    host: trunk.host,
    port: text(trunk.port),
    transport: oneOf(TRANSPORTS, trunk.transport, 'udp'),
    auth_type: oneOf(AUTH_TYPES, trunk.auth_type, 'ip'),
    username: text(trunk.username),
    dial_prefix: text(trunk.dial_prefix),
    strip_digits: text(trunk.strip_digits),
    codecs: (trunk.codecs ?? []).filter(isCodec),
    max_channels: text(trunk.max_channels),
    qualify: Boolean(trunk.qualify),
    failover_order: text(trunk.failover_order),
    vendor_id: trunk.vendor_id ?? null
  };
}

const whole = (v: string | number): boolean => /^\d+$/.test(String(v).trim());

function checkRange(
  errors: TrunkErrors,
  field: keyof TrunkForm,
  value: string,
  low: number,
  high: number,
  label: string
): void {
  if (!whole(value) || Number(value) < low || Number(value) > high)
    errors[field] = `${label} must be a whole number from ${low} to ${high}`;
}

/** `{field: message}` for what is plainly wrong; `hasSecret` says a stored secret is kept when blank. */
export function validateTrunk(values: TrunkForm, { hasSecret = false }: { hasSecret?: boolean } = {}): TrunkErrors {
  const errors: TrunkErrors = {};
  if (!values.name.trim()) errors.name = 'Name is required';
  if (!values.host.trim()) errors.host = 'Host is required';
  else if (/\s/.test(values.host.trim())) errors.host = 'Host must be a host name or an IP address';
  checkRange(errors, 'port', values.port, 1, 65535, 'Port');
  checkRange(errors, 'strip_digits', values.strip_digits, 0, 15, 'Strip digits');
  checkRange(errors, 'failover_order', values.failover_order, 0, 1000, 'Failover order');
  if (String(values.max_channels).trim() !== '')
    checkRange(errors, 'max_channels', values.max_channels, 1, 100000, 'Max channels');
  if (!/^[0-9+*#]*$/.test(values.dial_prefix.trim()))
    errors.dial_prefix = 'Dial prefix may hold only digits, +, * and #';
  if (!values.codecs.length) errors.codecs = 'Choose at least one codec';
  if (values.auth_type === 'digest') {
    if (!values.username.trim()) errors.username = 'Digest authentication needs a username';
    if (!values.secret && !hasSecret) errors.secret = 'Digest authentication needs a secret';
  }
  return errors;
}

/** The request body. On an edit a blank secret is left out, so the stored one is kept. */
export function trunkBody(values: TrunkForm, { editing = false }: { editing?: boolean } = {}): TrunkBody {
  const body: TrunkBody = {
    name: values.name.trim(),
    direction: values.direction,
    host: values.host.trim(),
    port: Number(values.port),
    transport: values.transport,
    auth_type: values.auth_type,
    username: values.username.trim() || null,
    dial_prefix: values.dial_prefix.trim(),
    strip_digits: Number(values.strip_digits),
    codecs: values.codecs,
    max_channels: String(values.max_channels).trim() === '' ? null : Number(values.max_channels),
    qualify: Boolean(values.qualify),
    failover_order: Number(values.failover_order),
    vendor_id: values.vendor_id ?? null
  };
  if (values.secret) body.secret = values.secret;
  else if (!editing) body.secret = null;
  return body;
}
