// The IVR dialog's values <-> the API's IVR settings (portal_api/schemas/campaigns.py IvrEdit): a
// caller to a campaign with IVR authentication hears the prompt and keys a PIN of `ivr_digits`
// digits, with `ivr_attempts` tries. The server checks everything again.

import type { IvrSettings } from '../client';
import type { FieldErrors } from './validation';

export const MAX_PINS = 1000;

export interface IvrForm {
  ivr_enabled: boolean;
  ivr_prompt: string;
  pins: string;
  ivr_digits: string;
  ivr_attempts: string;
}

/** PUT /ivr's body: a campaign's IVR settings. */
export type IvrBody = IvrSettings & { campaign_id: number };

export function emptyIvr(): IvrForm {
  return { ivr_enabled: false, ivr_prompt: '', pins: '', ivr_digits: '4', ivr_attempts: '3' };
}

export function ivrToForm(settings: Partial<IvrSettings> | null | undefined): IvrForm {
  return {
    ivr_enabled: Boolean(settings?.ivr_enabled),
    ivr_prompt: settings?.ivr_prompt ?? '',
    pins: (settings?.ivr_pins ?? []).join(', '),
    ivr_digits: String(settings?.ivr_digits ?? 4),
    ivr_attempts: String(settings?.ivr_attempts ?? 3)
  };
}

/** PINs as typed (separated by commas, spaces or lines), without repeats. */
export function parsePins(text: string | null | undefined): string[] {
  return [
    ...new Set(
      String(text ?? '')
        .split(/[\s,;]+/)
        .filter(Boolean)
    )
  ];
}

const whole = (v: string | number): boolean => /^\d+$/.test(String(v).trim());

/** `{field: message}` for what the server would refuse. */
export function validateIvr(values: IvrForm): FieldErrors<keyof IvrForm> {
  const errors: FieldErrors<keyof IvrForm> = {};
  const digitsOk = whole(values.ivr_digits) && Number(values.ivr_digits) >= 1 && Number(values.ivr_digits) <= 12;
  if (!digitsOk) errors.ivr_digits = 'PIN length must be a whole number from 1 to 12';
  if (!whole(values.ivr_attempts) || Number(values.ivr_attempts) < 1 || Number(values.ivr_attempts) > 10) {
    errors.ivr_attempts = 'Attempts must be a whole number from 1 to 10';
  }
  if (values.ivr_prompt.trim().length > 255) errors.ivr_prompt = 'Prompt must be at most 255 characters';
  const pins = parsePins(values.pins);
  const notDigits = pins.find((p) => !/^\d+$/.test(p));
  if (notDigits) errors.pins = `PINs are digits only; ${notDigits} is not`;
  else if (digitsOk && pins.some((p) => p.length !== Number(values.ivr_digits))) {
    errors.pins = `Every PIN must have ${Number(values.ivr_digits)} digits; ${pins.find((p) => p.length !== Number(values.ivr_digits))} does not`;
  } else if (pins.length > MAX_PINS) errors.pins = `At most ${MAX_PINS} PINs`;
  else if (values.ivr_enabled && pins.length === 0) errors.pins = 'An enabled IVR needs at least one PIN';
  return errors;
}

export function ivrBody(campaignId: number | string, values: IvrForm): IvrBody {
  return {
    campaign_id: Number(campaignId),
    ivr_enabled: Boolean(values.ivr_enabled),
    ivr_prompt: values.ivr_prompt.trim() || null,
    ivr_pins: parsePins(values.pins),
    ivr_digits: Number(values.ivr_digits),
    ivr_attempts: Number(values.ivr_attempts)
  };
}

/** A random PIN of `digits` digits, not one of `taken`. */
export function newPin(
  digits: number | string,
  taken: readonly string[] = [],
  random: () => number = Math.random
): string {
  const n = Math.max(1, Math.min(12, Number(digits) || 4));
  for (;;) {
    const pin = Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
    if (!taken.includes(pin)) return pin;
  }
}

/** A prompt as a list shows it: the platform's, an upload, or a core sound's name. */
export function promptName(prompt: string | null | undefined): string {
  if (!prompt) return 'Default';
  return prompt.startsWith('prompt:') ? 'Uploaded' : prompt;
}
