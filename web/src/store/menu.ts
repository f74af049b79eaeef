// Menu state (spec §3): whether the dashboard drawer is open and which item was opened last.
// Local state only, shared by the header, the drawer and the menu items.
import { useSyncExternalStore } from 'react';
import { getStoredDrawerOpen, setStoredDrawerOpen } from '../utils/storage';
import { BREAKPOINTS } from '../config';

/** The drawer starts closed below the xl breakpoint, otherwise in its saved state. */
export interface MenuMaster {
  openedItem: string;
  isDashboardDrawerOpened: boolean;
}

function initialDrawerOpen(): boolean {
  const wide =
    typeof window === 'undefined' || typeof window.matchMedia !== 'function'
      ? true
      : window.matchMedia(`(min-width: ${BREAKPOINTS.xl}px)`).matches;
  return wide ? getStoredDrawerOpen() : false;
}

function initialState(): MenuMaster {
  return { openedItem: '', isDashboardDrawerOpened: initialDrawerOpen() };
}

let state = initialState();
const listeners = new Set<() => void>();

function set(patch: Partial<MenuMaster>): void {
  state = { ...state, ...patch };
  listeners.forEach((l) => l());
}

const getMenuMaster = (): MenuMaster => state;

function subscribeMenu(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useGetMenuMaster(): { menuMaster: MenuMaster } {
  const menuMaster = useSyncExternalStore(subscribeMenu, getMenuMaster, getMenuMaster);
  return { menuMaster };
}

/**
 * Open or close the dashboard drawer. A user's choice is saved to local storage;
 * breakpoint-driven changes pass { persist: false }.
 */
export function handlerDrawerOpen(
  isDashboardDrawerOpened: boolean,
  { persist = true }: { persist?: boolean } = {}
): void {
  if (persist) setStoredDrawerOpen(isDashboardDrawerOpened);
  if (state.isDashboardDrawerOpened !== isDashboardDrawerOpened) set({ isDashboardDrawerOpened });
}

export function handlerActiveItem(openedItem: string): void {
  if (state.openedItem !== openedItem) set({ openedItem });
}

/** For tests. */
export function resetMenuMaster(): void {
  state = initialState();
  listeners.forEach((l) => l());
}
