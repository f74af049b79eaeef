import { ROLE_ADMIN, ROLE_BUYER } from '../config';

const roleOf = (user) => (user && user.role != null ? Number(user.role) : null);
export const isAdmin = (user) => roleOf(user) === ROLE_ADMIN;
export const isBuyer = (user) => roleOf(user) === ROLE_BUYER;
/** Customer or company: any signed-in role other than admin (1) and buyer (3). */
export const isCustomer = (user) => roleOf(user) != null && !isAdmin(user) && !isBuyer(user);
