// Local menu state (spec §3), held in one small store under the cache key 'api/menu/master'.
// It never revalidates: it is local state only.
import { useSyncExternalStore } from 'react';
import { getStoredDrawerOpen, setStoredDrawerOpen } from '../utils/storage';
import { BREAKPOINTS } from '../config';

/** The drawer starts closed below the xl breakpoint, otherwise in its saved state. */
function initialDrawerOpen() {
  const wide =
    typeof window === 'undefined' || typeof window.matchMedia !== 'function'
      ? true
      : window.matchMedia(`(min-width: ${BREAKPOINTS.xl}px)`).matches;
  return wide ? getStoredDrawerOpen() : false;
}

export const MENU_KEY = 'api/menu/master';

function initialState() {
  return {
    openedItem: '',
    openedComponent: 'buttons',
    openedHorizontalItem: null,
    isDashboardDrawerOpened: initialDrawerOpen(),
    isComponentDrawerOpened: true
  };
}

let state = initialState();
const listeners = new Set();

function set(patch) {
  state = { ...state, ...patch };
  listeners.forEach((l) => l());
}

export function getMenuMaster() {
  return state;
}

export function subscribeMenu(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useGetMenuMaster() {
  const menuMaster = useSyncExternalStore(subscribeMenu, getMenuMaster, getMenuMaster);
  return { menuMaster, menuMasterLoading: false };
}

/**
 * Open or close the dashboard drawer. A user's choice is saved to local storage;
 * breakpoint-driven changes pass { persist: false }.
 */
export function handlerDrawerOpen(isDashboardDrawerOpened, { persist = true } = {}) {
  if (persist) setStoredDrawerOpen(isDashboardDrawerOpened);
  if (state.isDashboardDrawerOpened !== isDashboardDrawerOpened) set({ isDashboardDrawerOpened });
}

export function handlerActiveItem(openedItem) {
  if (state.openedItem !== openedItem) set({ openedItem });
}

export function handlerComponentDrawer(isComponentDrawerOpened) {
  set({ isComponentDrawerOpened });
}

export function handlerActiveComponent(openedComponent) {
  set({ openedComponent });
}

export function handlerHorizontalActiveItem(openedHorizontalItem) {
  set({ openedHorizontalItem });
}

/** For tests. */
export function resetMenuMaster() {
  state = initialState();
  listeners.forEach((l) => l());
}
