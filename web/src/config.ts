// Application-wide constants (portal spec §3 and §9).

export const APP_NAME = 'CallRoute';

// Routes
export const DASHBOARD_PATH = '/dashboard';
export const LOGIN_PATH = '/login';

export interface ThemeDefaults {
  defaultPath: string;
  fontFamily: string;
  presetColor: string;
  themeDirection: 'ltr' | 'rtl';
}

// Theme defaults (spec §3). The appearance the user actually starts with is the stored
// `themeMode`, or 'dark' when nothing is stored (see utils/storage.ts).
export const themeDefaults: ThemeDefaults = {
  defaultPath: '/',
  fontFamily: `'Public Sans', sans-serif`,
  presetColor: 'default',
  themeDirection: 'ltr'
};
export type ThemeMode = 'light' | 'dark';
export const DEFAULT_THEME_MODE: ThemeMode = 'dark';

// Breakpoints (spec §9)
export const BREAKPOINTS = { xs: 0, sm: 768, md: 1024, lg: 1266, xl: 1440 };

// Layout sizes (spec §9).
// The spec gives two sidebar widths (220 "menu drawer", 260 "layout"). This build uses
// 260 for the drawer everywhere (permanent and temporary). See web/README.md.
export const DRAWER_WIDTH = 260;
export const MINI_DRAWER_WIDTH = 60;
export const HEADER_HEIGHT = 60; // toolbar min height, with 8 px vertical padding
export const TOOLBAR_PADDING_Y = 8;
export const MAIN_TOP_MARGIN = 64;
export const LOGO_HEIGHT = 60;
export const LOGO_COLLAPSED_WIDTH = 35;

// Constants of spec §9 (the money ones, currency and low-balance threshold, come from GET /config)
export const CLOCK_TICK_MS = 1000;
export const NOTIFICATION_PAGE_SIZE = 10;
export const NOTIFICATION_SCROLL_THRESHOLD = 50;
export const NOTIFICATION_MAX_HEIGHT = 300;
export const REQUEST_TIMEOUT = 0; // no timeout

// Roles (spec §6)
export const ROLE_ADMIN = 1;
export const ROLE_BUYER = 3;
