// Stand-in types for store/menu.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once store/menu.ts lands.
/** The drawer starts closed below the xl breakpoint, otherwise in its saved state. */
export interface MenuMaster {
  openedItem: string;
  isDashboardDrawerOpened: boolean;
}
export declare function useGetMenuMaster(): {
  menuMaster: MenuMaster;
};
/**
 * Open or close the dashboard drawer. A user's choice is saved to local storage;
 * breakpoint-driven changes pass { persist: false }.
 */
export declare function handlerDrawerOpen(
  isDashboardDrawerOpened: boolean,
  {
    persist
  }?: {
    persist?: boolean;
  }
): void;
export declare function handlerActiveItem(openedItem: string): void;
/** For tests. */
export declare function resetMenuMaster(): void;
