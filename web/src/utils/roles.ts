import { ROLE_ADMIN, ROLE_BUYER } from '../config';

/** Any user record with a role (the stored user, a listed user); the role may arrive as text. */
export interface HasRole {
  role?: number | string | null;
}

const roleOf = (user: HasRole | null | undefined): number | null =>
  user && user.role != null ? Number(user.role) : null;
export const isAdmin = (user: HasRole | null | undefined): boolean => roleOf(user) === ROLE_ADMIN;
export const isBuyer = (user: HasRole | null | undefined): boolean => roleOf(user) === ROLE_BUYER;
/** Customer or company: any signed-in role other than admin (1) and buyer (3). */
export const isCustomer = (user: HasRole | null | undefined): boolean =>
  roleOf(user) != null && !isAdmin(user) && !isBuyer(user);
