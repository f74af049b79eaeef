import { describe, expect, it } from 'vitest';
import {
  emptyRate,
  importProblems,
  increments,
  rateBody,
  rateToForm,
  ratesCsv,
  utcMinute,
  validateRate
} from '../utils/rateForm';

const filled = { ...emptyRate(), prefix: '+4420', rate_per_minute: '0.0125' };

describe('rate dialog', () => {
  it('needs a prefix of digits and a rate with at most 4 places', () => {
    expect(validateRate(emptyRate())).toEqual({
      prefix: 'Prefix: up to 15 digits starting with a country code, e.g. 4420',
      rate_per_minute: 'Rate must be an amount like 0.0125'
    });
    expect(validateRate(filled)).toEqual({});
    expect(validateRate({ ...filled, prefix: '020' })).toHaveProperty('prefix');
    expect(validateRate({ ...filled, rate_per_minute: '0.00001' })).toHaveProperty('rate_per_minute');
    expect(validateRate({ ...filled, country: 'GBR' })).toEqual({ country: 'A two-letter country code, such as GB' });
  });

  it('keeps billing blocks within 1 to 3600 seconds and the minimum within 0 to 3600', () => {
    expect(validateRate({ ...filled, initial_increment: '0', billing_increment: '3601', min_duration: '-1' })).toEqual({
      initial_increment: 'Seconds from 1 to 3600',
      billing_increment: 'Seconds from 1 to 3600',
      min_duration: 'Seconds from 0 to 3600'
    });
  });

  it('reads the start as a UTC date, with or without a time', () => {
    expect(validateRate({ ...filled, effective_from: '1 Jan 2026' })).toHaveProperty('effective_from');
    expect(validateRate({ ...filled, effective_from: '2026-02-30' })).toEqual({ effective_from: 'Not a real date' });
    expect(validateRate({ ...filled, effective_from: '2026-02-28 23:59' })).toEqual({});
    expect(rateBody({ ...filled, effective_from: '2026-01-01 09:30' }, 4).effective_from).toBe('2026-01-01T09:30:00Z');
    expect(rateBody({ ...filled, effective_from: '2026-01-01' }, 4).effective_from).toBe('2026-01-01T00:00:00Z');
  });

  it('sends digits without the plus, numbers as numbers, and no empty country or start', () => {
    expect(rateBody(filled, 4)).toEqual({
      tariff_id: 4,
      prefix: '4420',
      rate_per_minute: '0.0125',
      connection_fee: '0',
      initial_increment: 60,
      billing_increment: 60,
      min_duration: 0
    });
  });

  it('edits a rate from what the API gives', () => {
    const api = {
      prefix: '4420',
      country: 'GB',
      rate_per_minute: '0.0125',
      connection_fee: '0.0000',
      initial_increment: 30,
      billing_increment: 6,
      min_duration: 0,
      effective_from: '2026-01-01T00:00:00+00:00'
    };
    expect(rateToForm(api)).toMatchObject({
      rate_per_minute: '0.0125',
      connection_fee: '0',
      initial_increment: '30',
      effective_from: '2026-01-01 00:00'
    });
    expect(increments(api)).toBe('30/6');
    expect(utcMinute('nonsense')).toBe('');
  });
});

describe('rate card CSV', () => {
  it('exports in the columns the import reads', () => {
    const csv = ratesCsv([
      {
        prefix: '4420',
        country: null,
        rate_per_minute: '0.0125',
        connection_fee: '0.0000',
        initial_increment: 60,
        billing_increment: 60,
        min_duration: 0,
        effective_from: '2026-01-01T00:00:00+00:00'
      }
    ]);
    expect(csv).toBe(
      'prefix,country,rate,connection_fee,initial_increment,billing_increment,min_duration,effective_from\r\n4420,,0.0125,0.0000,60,60,0,2026-01-01T00:00:00+00:00\r\n'
    );
  });

  it("lists a refused import's lines in order, each with its problems", () => {
    expect(
      importProblems({ 'line 12': ['rate must be a number'], 'line 3': ['prefix is required', 'rate is required'] })
    ).toEqual([
      { line: 3, problems: ['prefix is required', 'rate is required'] },
      { line: 12, problems: ['rate must be a number'] }
    ]);
    expect(importProblems(undefined)).toEqual([]);
  });
});
