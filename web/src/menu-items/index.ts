import adminMenu from './admin';
import userMenu from './user';
import { type HasRole, isAdmin, isBuyer } from '../utils/roles';
import type { Menu, MenuItem } from './item';

export { adminMenu, userMenu };
export type { Menu, MenuGroup, MenuItem } from './item';

/** Spec §2: role 1 gets the admin menu, any other role the user menu. */
export function chooseMenu(user: HasRole | null | undefined): Menu {
  return isAdmin(user) ? adminMenu : userMenu;
}

/** Spec §2: the sidebar is hidden for role 3. */
export function showSidebar(user: HasRole | null | undefined): boolean {
  return !isBuyer(user);
}

/**
 * An item is selected when the current path starts with its url (path-segment aware, so
 * '/buyer' does not light up on '/buyer-target'), or when it is the remembered opened item.
 */
export function pathStartsWith(pathname: string | null | undefined, url: string | null | undefined): boolean {
  if (!url || !pathname) return false;
  if (pathname === url) return true;
  const base = url.endsWith('/') ? url : `${url}/`;
  return pathname.startsWith(base);
}

export function isItemSelected(
  item: Pick<MenuItem, 'id' | 'url'> | null | undefined,
  pathname: string,
  openedItem: string
): boolean {
  if (!item) return false;
  if (item.url && pathStartsWith(pathname, item.url)) return true;
  return Boolean(openedItem) && openedItem === item.id;
}

/** How a child of a group renders: 'item', 'collapse' (placeholder) or 'unknown'. */
export function childKind(child: { type?: string } | null | undefined): 'item' | 'collapse' | 'unknown' {
  if (child?.type === 'item') return 'item';
  if (child?.type === 'collapse') return 'collapse';
  return 'unknown';
}
