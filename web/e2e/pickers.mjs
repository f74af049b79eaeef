// Choosing in a searchable picker (an autocomplete) by typing in it, as a user does.

/**
 * Pick `name` in the searchable name picker whose input has test id `testid`: the first option starting with it.
 * @param {import('playwright-core').Page} page
 * @param {string} testid
 * @param {string} name
 */
export async function pick(page, testid, name) {
  await page.getByTestId(testid).fill(name);
  await page
    .getByRole('option', { name: new RegExp(`^${name}`) })
    .first()
    .click();
}

/**
 * Choose `option` (its whole name) in the searchable picker whose input has test id `testId`, typing `typed`.
 * @param {import('playwright-core').Page} page
 * @param {string} testId
 * @param {string} typed
 * @param {string} option
 */
export async function pickExact(page, testId, typed, option) {
  await page.getByTestId(testId).fill(typed);
  await page.getByRole('option', { name: option, exact: true }).click();
}
