// Stand-in types for utils/userForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/userForm.ts lands.
import type { TariffOut, UserCreate, UserOut } from '../client';
import { type FieldErrors } from './validation';
export type AccountKind = 'customer' | 'admin' | 'buyer';
export interface UserForm {
  kind: AccountKind;
  name: string;
  email: string;
  password: string;
  timezone: string;
  tariff_id: number | string | null;
  company: string;
  phone: string;
}
/** POST /user/add's body; an edit (PUT) leaves the password out unless one is typed. */
export type UserBody = Omit<UserCreate, 'password'> & {
  password?: string;
};
export declare const ACCOUNT_KINDS: readonly (readonly [AccountKind, string])[];
export declare function emptyUser(): UserForm;
export declare function userToForm(
  user: Partial<Pick<UserOut, 'name' | 'email' | 'timezone' | 'tariff_id' | 'company' | 'phone'>> & {
    role?: number | string | null;
  }
): UserForm;
/** `{field: message}`; an edit keeps the password unless a new one is typed. */
export declare function validateUser(
  values: UserForm,
  {
    editing
  }?: {
    editing?: boolean;
  }
): FieldErrors<keyof UserForm>;
/** The request body; only customers have a tariff, and an edit sends a password only when typed. */
export declare function userBody(
  values: UserForm,
  {
    editing
  }?: {
    editing?: boolean;
  }
): UserBody;
/** Names of tariffs by id, for the list's Tariff column. */
export declare function namesById(
  rows: readonly Pick<TariffOut, 'id' | 'name'>[] | null | undefined
): Record<number, string>;
