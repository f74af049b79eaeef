// How money is shown (spec §9), as GET /config gives it: the signed-in user's wallet currency and
// the low-balance threshold. The signed-in shell loads it before it renders any screen.
let money = { currency: null, low_balance_threshold: null };

export const getMoneyConfig = () => money;

export function setMoneyConfig({ currency = null, low_balance_threshold = null } = {}) {
  money = { currency, low_balance_threshold };
}

// Something moved money (a top-up seen, a number taken): the header balance reads it again.
const moved = new Set();

export function announceMoneyMoved() {
  moved.forEach((listener) => listener());
}

export function onMoneyMoved(listener) {
  moved.add(listener);
  return () => moved.delete(listener);
}
