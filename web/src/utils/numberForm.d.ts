// Stand-in types for utils/numberForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/numberForm.ts lands.
import type { NumberCreate, NumberOut, NumberStatus } from '../client';
import type { FieldErrors } from './validation';
export declare const NUMBER_STATUSES: readonly NumberStatus[];
export interface NumberForm {
  number: string;
  iso2: string;
  setup_fee: string;
  monthly_fee: string;
  vendor_id: number | null;
}
/** POST /number/add's body; an edit (PUT) sends the same without `number`. */
export type NumberBody = Omit<NumberCreate, 'number'> & {
  number?: string;
};
export declare function emptyNumber(): NumberForm;
export declare function numberToForm(
  n: Pick<NumberOut, 'number' | 'setup_fee' | 'monthly_fee' | 'vendor_id'>
): NumberForm;
/** `{field: message}`; the number itself is checked (and made E.164) by the server. */
export declare function validateNumber(
  values: NumberForm,
  {
    editing
  }?: {
    editing?: boolean;
  }
): FieldErrors<keyof NumberForm>;
/** A new number names itself (and its country, when not the number's own); an edit fees and vendor. */
export declare function numberBody(
  values: NumberForm,
  {
    editing
  }?: {
    editing?: boolean;
  }
): NumberBody;
/** What taking `rows` costs now: the sum of their setup fees, to the cent of the API's 4 places. */
export declare function setupTotal(
  rows: readonly {
    setup_fee: string | number;
  }[]
): number;
