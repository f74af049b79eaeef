// Stand-in types for utils/topupForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/topupForm.ts lands.
import type { TopupIn } from '../client';
import type { FieldErrors } from './validation';
export interface TopupForm {
  user_id: string | number | null;
  amount: string | number;
  reference: string;
  note: string;
}
/** A fresh reference for each new top-up: sending the form twice credits once. */
export declare function newReference(now?: number, random?: () => number): string;
export declare function emptyTopup(reference?: string): TopupForm;
export declare function validateTopup(values: TopupForm): FieldErrors<keyof TopupForm>;
export declare function topupBody(values: TopupForm): TopupIn;
