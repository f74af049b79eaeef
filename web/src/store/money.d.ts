// Stand-in types for store/money.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once store/money.ts lands.
import type { PortalConfig } from '../client';
/** GET /config's money settings; null before they are loaded. */
export type MoneyConfig = {
  [K in keyof PortalConfig]: PortalConfig[K] | null;
};
export declare const getMoneyConfig: () => MoneyConfig;
export declare function setMoneyConfig({ currency, low_balance_threshold }?: Partial<MoneyConfig>): void;
export declare function announceMoneyMoved(): void;
export declare function onMoneyMoved(listener: () => void): () => void;
