// Stand-in types for utils/tariffForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/tariffForm.ts lands.
import type { TariffCreate, TariffOut } from '../client';
import type { FieldErrors } from './validation';
export interface TariffForm {
  name: string;
  currency: string;
  description: string;
}
export declare function emptyTariff(): TariffForm;
export declare function tariffToForm(t: Pick<TariffOut, 'name' | 'currency' | 'description'>): TariffForm;
/** `{field: message}`; the server also checks the code is a real ISO 4217 currency. */
export declare function validateTariff(values: TariffForm): FieldErrors<keyof TariffForm>;
export declare function tariffBody(values: TariffForm): TariffCreate;
