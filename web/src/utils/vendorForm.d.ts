// Stand-in types for utils/vendorForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/vendorForm.ts lands.
import type { VendorCreate, VendorOut } from '../client';
import { type FieldErrors } from './validation';
export interface VendorForm {
  name: string;
  contact_name: string;
  email: string;
  phone: string;
}
export declare function emptyVendor(): VendorForm;
export declare function vendorToForm(v: Pick<VendorOut, 'name' | 'contact_name' | 'email' | 'phone'>): VendorForm;
/** `{field: message}`; only the name is required. */
export declare function validateVendor(values: VendorForm): FieldErrors<keyof VendorForm>;
/** Blank optional fields are sent as null, so an edit can clear them. */
export declare function vendorBody(values: VendorForm): VendorCreate;
