// Files a screen hands the browser (an export, a PDF, a sample).
import { readFile } from 'node:fs/promises';

/**
 * Click `button` and read the file it downloads, as text (or bytes with `binary`).
 * @overload
 * @param {import('playwright-core').Page} page
 * @param {import('playwright-core').Locator} button
 * @param {{ binary?: false }} [options]
 * @returns {Promise<{ name: string, data: string }>}
 */
/**
 * @overload
 * @param {import('playwright-core').Page} page
 * @param {import('playwright-core').Locator} button
 * @param {{ binary: true }} options
 * @returns {Promise<{ name: string, data: Buffer }>}
 */
/**
 * @param {import('playwright-core').Page} page
 * @param {import('playwright-core').Locator} button
 * @param {{ binary?: boolean }} [options]
 * @returns {Promise<{ name: string, data: string | Buffer }>}
 */
export async function downloaded(page, button, { binary = false } = {}) {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const data = await readFile(await download.path());
  return { name: download.suggestedFilename(), data: binary ? data : data.toString('utf8') };
}
