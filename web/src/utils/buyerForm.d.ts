// Stand-in types for utils/buyerForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/buyerForm.ts lands.
import type { BuyerIn, BuyerOut } from '../client';
import { type FieldErrors } from './validation';
export interface BuyerForm {
  name: string;
  email: string;
  password: string;
  phone: string;
  user_id: string;
}
export declare function emptyBuyer(): BuyerForm;
export declare function buyerToForm(b: Pick<BuyerOut, 'name' | 'email' | 'phone' | 'user_id'>): BuyerForm;
/** `{field: message}`; an edit keeps the password unless a new one is typed. */
export declare function validateBuyer(
  values: BuyerForm,
  {
    editing,
    needsOwner
  }?: {
    editing?: boolean;
    needsOwner?: boolean;
  }
): FieldErrors<keyof BuyerForm>;
/** A new buyer's body (BuyerIn); an edit's leaves the password out unless one is typed (BuyerUpdate). */
export declare function buyerBody(
  values: BuyerForm,
  {
    editing,
    admin
  }?: {
    editing?: boolean;
    admin?: boolean;
  }
): Omit<BuyerIn, 'password'> & {
  password?: string;
};
