// Stand-in types for utils/roles.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/roles.ts lands.
/** Any user record with a role (the stored user, a listed user); the role may arrive as text. */
export interface HasRole {
  role?: number | string | null;
}
export declare const isAdmin: (user: HasRole | null | undefined) => boolean;
export declare const isBuyer: (user: HasRole | null | undefined) => boolean;
/** Customer or company: any signed-in role other than admin (1) and buyer (3). */
export declare const isCustomer: (user: HasRole | null | undefined) => boolean;
