import adminMenu from './admin';
import userMenu from './user';
import { isAdmin, isBuyer } from '../utils/roles';

export { adminMenu, userMenu };

/** Spec §2: role 1 gets the admin menu, any other role the user menu. */
export function chooseMenu(user) {
  return isAdmin(user) ? adminMenu : userMenu;
}

/** Spec §2: the sidebar is hidden for role 3. */
export function showSidebar(user) {
  return !isBuyer(user);
}

/**
 * An item is selected when the current path starts with its url (path-segment aware, so
 * '/buyer' does not light up on '/buyer-target'), or when it is the remembered opened item.
 */
export function pathStartsWith(pathname, url) {
  if (!url || !pathname) return false;
  if (pathname === url) return true;
  const base = url.endsWith('/') ? url : `${url}/`;
  return pathname.startsWith(base);
}

export function isItemSelected(item, pathname, openedItem) {
  if (!item) return false;
  if (item.url && pathStartsWith(pathname, item.url)) return true;
  return Boolean(openedItem) && openedItem === item.id;
}

/** How a child of a group renders: 'item', 'collapse' (placeholder) or 'unknown'. */
export function childKind(child) {
  if (child?.type === 'item') return 'item';
  if (child?.type === 'collapse') return 'collapse';
  return 'unknown';
}
