// What a page said on its own: its uncaught errors and the dialogs it opened, kept from the moment
// run.mjs's newPage creates it (a WeakMap rather than properties stuck on playwright's Page).
import assert from 'node:assert/strict';

/** @typedef {import('playwright-core').Page} Page */

/** @type {WeakMap<Page, { errors: string[], dialogs: string[] }>} */
const said = new WeakMap();

/**
 * From now on keep `page`'s uncaught errors and the messages of its dialogs, each dialog accepted.
 * @param {Page} page
 */
export function keepErrorsAndDialogs(page) {
  /** @type {{ errors: string[], dialogs: string[] }} */
  const kept = { errors: [], dialogs: [] };
  said.set(page, kept);
  page.on('dialog', (d) => {
    kept.dialogs.push(d.message());
    void d.accept();
  });
  page.on('pageerror', (err) => {
    kept.errors.push(String(err));
  });
}

/**
 * The uncaught errors of `page` so far.
 * @param {Page} page
 */
const errorsOf = (page) => [...(said.get(page)?.errors ?? [])];

/**
 * The messages of the dialogs `page` opened so far.
 * @param {Page} page
 */
export const dialogsOf = (page) => [...(said.get(page)?.dialogs ?? [])];

/**
 * No page of `pages` has thrown.
 * @param {...Page} pages
 */
export const noErrors = (...pages) => assert.deepEqual(pages.flatMap(errorsOf), [], 'no page errors');
