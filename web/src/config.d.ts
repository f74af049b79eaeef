// Stand-in types for config.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once config.ts lands.
export declare const APP_NAME = 'CallRoute';
export declare const DASHBOARD_PATH = '/dashboard';
export declare const LOGIN_PATH = '/login';
export interface ThemeDefaults {
  defaultPath: string;
  fontFamily: string;
  presetColor: string;
  themeDirection: 'ltr' | 'rtl';
}
export declare const themeDefaults: ThemeDefaults;
export type ThemeMode = 'light' | 'dark';
export declare const DEFAULT_THEME_MODE: ThemeMode;
export declare const BREAKPOINTS: {
  xs: number;
  sm: number;
  md: number;
  lg: number;
  xl: number;
};
export declare const DRAWER_WIDTH = 260;
export declare const MINI_DRAWER_WIDTH = 60;
export declare const HEADER_HEIGHT = 60;
export declare const TOOLBAR_PADDING_Y = 8;
export declare const MAIN_TOP_MARGIN = 64;
export declare const LOGO_HEIGHT = 60;
export declare const LOGO_COLLAPSED_WIDTH = 35;
export declare const CLOCK_TICK_MS = 1000;
export declare const NOTIFICATION_PAGE_SIZE = 10;
export declare const NOTIFICATION_SCROLL_THRESHOLD = 50;
export declare const NOTIFICATION_MAX_HEIGHT = 300;
export declare const REQUEST_TIMEOUT = 0;
export declare const ROLE_ADMIN = 1;
export declare const ROLE_BUYER = 3;
