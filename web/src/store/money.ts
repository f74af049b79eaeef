// How money is shown (spec §9), as GET /config gives it: the signed-in user's wallet currency and
// the low-balance threshold. The signed-in shell loads it before it renders any screen.
import type { PortalConfig } from '../client';

/** GET /config's money settings; null before they are loaded. */
export type MoneyConfig = { [K in keyof PortalConfig]: PortalConfig[K] | null };

let money: MoneyConfig = { currency: null, low_balance_threshold: null };

export const getMoneyConfig = (): MoneyConfig => money;

export function setMoneyConfig({ currency = null, low_balance_threshold = null }: Partial<MoneyConfig> = {}): void {
  money = { currency, low_balance_threshold };
}

// Something moved money (a top-up seen, a number taken): the header balance reads it again.
const moved = new Set<() => void>();

export function announceMoneyMoved(): void {
  moved.forEach((listener) => listener());
}

export function onMoneyMoved(listener: () => void): () => void {
  moved.add(listener);
  return () => {
    moved.delete(listener);
  };
}
