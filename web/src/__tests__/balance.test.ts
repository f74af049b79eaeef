import { beforeEach, describe, expect, it } from 'vitest';
import { RATE_PLACES, formatBalance, isLowBalance, minorUnit, moneyPlaces, parseBalance } from '../utils/balance';
import { setMoneyConfig } from '../store/money';

describe('low balance threshold (below the one GET /config gives)', () => {
  beforeEach(() => setMoneyConfig({ currency: 'USD', low_balance_threshold: '50.0000' }));

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

  it("follows the API's threshold and currency", () => {
    expect(isLowBalance('80', '100.0000')).toBe(true);
    setMoneyConfig({ currency: 'EUR', low_balance_threshold: '10.0000' });
    expect(isLowBalance('20.0000')).toBe(false);
    expect(formatBalance('1234.5')).toBe('€1,234.50');
    expect(formatBalance('7', 'GBP')).toBe('£7.00');
    // Rates keep 4 places in every row, so $0.015 never sits beside $0.02.
    expect(formatBalance('0.0125', 'USD', RATE_PLACES)).toBe('$0.0125');
    expect(formatBalance('0.1000', 'USD', RATE_PLACES)).toBe('$0.1000');
  });

  it("shows the currency's minor unit, and a column's sub-cent places in all its rows", () => {
    expect(formatBalance('1500', 'JPY')).toBe('¥1,500');
    expect(formatBalance('2.5', 'KWD')).toMatch(/2\.500$/);
    expect([minorUnit('USD'), minorUnit('JPY'), minorUnit(null), minorUnit('nope')]).toEqual([2, 0, 2, 2]);
    expect(moneyPlaces(['10.0000', '-0.0125', '9.9875'], 'USD')).toBe(4);
    expect(moneyPlaces(['10.0000', '-0.0200', '9.9800'], 'USD')).toBe(2);
    expect(moneyPlaces(['0.0050'], 'USD')).toBe(3);
    expect(moneyPlaces(['1500.0000'], 'JPY')).toBe(0);
    // A wallet whose lines add up on screen: 10.00 - 0.0125 = 9.9875.
    const places = moneyPlaces(['10.0000', '-0.0125', '9.9875'], 'USD');
    expect(['10.0000', '-0.0125', '9.9875'].map((a) => formatBalance(a, 'USD', places))).toEqual([
      '$10.0000',
      '-$0.0125',
      '$9.9875'
    ]);
  });

  it('without the settings: two decimals, no currency, nothing flagged low', () => {
    setMoneyConfig();
    expect(formatBalance('12.3456')).toBe('12.35');
    expect(isLowBalance('1.0000')).toBe(false);
  });
});
