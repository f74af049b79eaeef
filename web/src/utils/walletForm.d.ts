// Stand-in types for utils/walletForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/walletForm.ts lands.
import type { TransactionType, WalletTransactionOut } from '../client';
export declare const TRANSACTION_TYPES: readonly TransactionType[];
export declare const PAYMENT_TYPES: readonly ['setup', 'monthly'];
export declare const typeLabel: (type: string) => string;
export interface WalletTotals {
  credits: number;
  debits: number;
  net: number;
  count: number;
}
/** Credits, debits and their net over `rows`, summed in ten-thousandths (the API's 4 places). */
export declare function walletTotals(rows: readonly Pick<WalletTransactionOut, 'amount'>[]): WalletTotals;
/** The month before `now` as "YYYY-MM": the one an invoice can be made for. */
export declare function lastMonth(now?: Date): string;
export declare function validateMonth(month: string): string;
