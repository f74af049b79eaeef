// Stand-in types for utils/balance.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/balance.ts lands.
/** An amount as the API sends it (a decimal string) or as a form holds it. */
export type Amount = string | number | null | undefined;
/** Amounts arrive as decimal strings with 4 places ("120.5000"). */
export declare function parseBalance(balance: Amount): number | null;
/** Low balance (spec §4, §9): strictly below the threshold the API gives. */
export declare function isLowBalance(balance: Amount, threshold?: Amount): boolean;
/**
 * Money as people read it: two decimals and the currency (the API's when none is named). Prices
 * per minute pass `maxDigits` 4, so a rate of 0.0125 is not shown as 0.01.
 */
export declare function formatBalance(
  balance: Amount,
  currency?: string | null | undefined,
  maxDigits?: number
): string;
