import { describe, expect, it } from 'vitest';
import { emptyIvr, ivrBody, ivrToForm, promptName, newPin, parsePins, validateIvr } from '../utils/ivrForm';

const on = { ...emptyIvr(), ivr_enabled: true, pins: '1234, 5678' };

describe('IVR dialog', () => {
  it('reads PINs separated by commas, spaces or lines, once each', () => {
    expect(parsePins(' 1234,5678\n1234 ; 0001 ')).toEqual(['1234', '5678', '0001']);
    expect(parsePins('')).toEqual([]);
  });

  it('an enabled IVR needs a PIN; off, none is needed', () => {
    expect(validateIvr({ ...on, pins: '' })).toEqual({ pins: 'An enabled IVR needs at least one PIN' });
    expect(validateIvr(emptyIvr())).toEqual({});
    expect(validateIvr(on)).toEqual({});
  });

  it('every PIN has the PIN length in digits', () => {
    expect(validateIvr({ ...on, pins: '1234, 567' }).pins).toBe('Every PIN must have 4 digits; 567 does not');
    expect(validateIvr({ ...on, pins: '12a4' }).pins).toBe('PINs are digits only; 12a4 is not');
    expect(validateIvr({ ...on, ivr_digits: '3', pins: '123' })).toEqual({});
  });

  it('PIN length 1-12, attempts 1-10, prompt up to 255', () => {
    const errors = validateIvr({ ...on, ivr_digits: '13', ivr_attempts: '0', ivr_prompt: 'x'.repeat(256) });
    expect(Object.keys(errors).sort()).toEqual(['ivr_attempts', 'ivr_digits', 'ivr_prompt']);
  });

  it('sends numbers as numbers, a blank prompt as null, and starts from the stored settings', () => {
    expect(ivrBody(7, { ...on, ivr_prompt: ' ' })).toEqual({
      campaign_id: 7,
      ivr_enabled: true,
      ivr_prompt: null,
      ivr_pins: ['1234', '5678'],
      ivr_digits: 4,
      ivr_attempts: 3
    });
    expect(
      ivrToForm({ ivr_enabled: true, ivr_prompt: 'enter-pin', ivr_pins: ['0042'], ivr_digits: 4, ivr_attempts: 2 })
    ).toEqual({
      ivr_enabled: true,
      ivr_prompt: 'enter-pin',
      pins: '0042',
      ivr_digits: '4',
      ivr_attempts: '2'
    });
  });

  it('a new PIN has the PIN length and is not one already there', () => {
    const digits = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
    let i = 0;
    const pin = newPin('4', ['1234'], () => digits[i++ % digits.length] ?? 0);
    expect(pin).toBe('5678');
  });

  it('a list names the prompt: the platform default, an upload, or the core sound', () => {
    expect(promptName(null)).toBe('Default');
    expect(promptName(`prompt:${'a'.repeat(64)}`)).toBe('Uploaded');
    expect(promptName('conf-getpin')).toBe('conf-getpin');
  });
});
