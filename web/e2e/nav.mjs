// The sidebar's menu: its groups and items as each role sees them, and reading them from a page.

export const ADMIN_GROUPS = {
  Main: ['Dashboard', 'User', 'Buyer', 'Trunk'],
  Feature: ['Campaign', 'Target', 'IVR Auth'],
  Number: ['Number', 'Block Number'],
  Report: ['Report', 'Live Calls'],
  Billing: ['Tariff', 'Rate Card', 'Topup', 'Wallet', 'Invoice']
};
export const USER_GROUPS = {
  Main: ['Dashboard', 'Block Number', 'Number', 'Buyer'],
  Feature: ['Campaign', 'Target', 'IVR Auth'],
  Report: ['Live Calls', 'Report'],
  Billing: ['Wallet', 'Invoice']
};

/**
 * The sidebar as `{group title: [item titles]}`.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<Record<string, string[]>>}
 */
export async function navTitles(page) {
  /** @type {Record<string, string[]>} */
  const groups = {};
  for (const list of await page.locator('nav [data-testid^="nav-group-group-"]').all()) {
    const title = (await list.getByTestId('nav-group-title').textContent())?.trim() ?? '';
    groups[title] = (await list.locator('[data-testid^="nav-item-"]').allTextContents()).map((t) => t.trim());
  }
  return groups;
}
