import { describe, expect, it } from 'vitest';
import { formatBalance, isLowBalance, parseBalance } from '../utils/balance';

describe('low balance threshold (below 50)', () => {
  it.each([
    ['49.9999', true],
    ['49.99', true],
    ['0.0000', true],
    ['-5.0000', true],
    [10, true],
    ['50.0000', false],
    ['50', false],
    [50, false],
    ['120.5000', false]
  ])('%s -> low %s', (value, low) => {
    expect(isLowBalance(value)).toBe(low);
  });

  it('an unknown balance is not low', () => {
    expect(isLowBalance(null)).toBe(false);
    expect(isLowBalance(undefined)).toBe(false);
    expect(isLowBalance('')).toBe(false);
    expect(isLowBalance('n/a')).toBe(false);
  });

  it('parses decimal strings and formats money', () => {
    expect(parseBalance('120.5000')).toBe(120.5);
    expect(formatBalance('120.5000')).toBe('$120.50');
    expect(formatBalance('1234567.891')).toBe('$1,234,567.89');
    expect(formatBalance('-3.5')).toBe('-$3.50');
    expect(formatBalance(null)).toBe('—');
  });
});
