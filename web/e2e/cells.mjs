// Reading a table by column: the cell of a row under a header, never a search of the row for a
// text (random names such as "E2E Leads 82052" can contain any short text).
import assert from 'node:assert/strict';

/**
 * The cell of table row `row` under the header `column`.
 * @param {import('playwright-core').Locator} row
 * @param {string} column
 * @param {{ timeout?: number }} [options]
 */
export async function cell(row, column, { timeout } = {}) {
  await row.waitFor({ timeout });
  const headers = (await row.locator('xpath=ancestor::table[1]/thead/tr/th').allInnerTexts()).map((t) => t.trim());
  const index = headers.indexOf(column);
  assert.ok(index >= 0, `no column "${column}" among ${headers.join(', ')}`);
  return row.locator(':scope > td').nth(index);
}

/**
 * Wait until the cell under `column` reads `text` exactly (a RegExp: matches it).
 * @param {import('playwright-core').Locator} row
 * @param {string} column
 * @param {string | RegExp} text
 * @param {{ timeout?: number }} [options]
 */
export async function cellHas(row, column, text, { timeout } = {}) {
  const pattern = text instanceof RegExp ? text : new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const deadline = timeout === undefined ? undefined : Date.now() + timeout;
  const target = await cell(row, column, { timeout });
  await target.filter({ hasText: pattern }).waitFor({ timeout: deadline && Math.max(1, deadline - Date.now()) });
}
