import { describe, expect, it } from 'vitest';
import { lastMonth, typeLabel, validateMonth, walletTotals } from '../utils/walletForm';
import { toCsv } from '../utils/download';

describe('wallet', () => {
  it('adds up credits and debits to the 4 places of the ledger', () => {
    const rows = [{ amount: '100.0000' }, { amount: '-0.1000' }, { amount: '-0.2000' }, { amount: '0.0001' }];
    expect(walletTotals(rows)).toEqual({ credits: 100.0001, debits: -0.3, net: 99.7001, count: 4 });
    expect(walletTotals([])).toEqual({ credits: 0, debits: 0, net: 0, count: 0 });
  });

  it('names transaction and fee types for people', () => {
    expect(typeLabel('number_monthly')).toBe('Number monthly');
    expect(typeLabel('setup')).toBe('Setup fee');
    expect(typeLabel('other')).toBe('other');
  });

  it('offers last month for an invoice, and checks a typed month', () => {
    expect(lastMonth(new Date('2026-01-15T00:00:00Z'))).toBe('2025-12');
    expect(lastMonth(new Date('2026-11-25T12:00:00Z'))).toBe('2026-10');
    expect(validateMonth('2026-10')).toBe('');
    expect(validateMonth('2026-13')).toBe('A month like 2026-10');
  });

  it('exports CSV with quoted cells where needed', () => {
    expect(
      toCsv(
        [
          { a: 'x,y', b: 'say "hi"' },
          { a: null, b: 3 }
        ],
        [
          ['A', (r) => r.a],
          ['B', (r) => r.b]
        ]
      )
    ).toBe('A,B\r\n"x,y","say ""hi"""\r\n,3\r\n');
  });
});
