// Waiting in the browser tests: always for a condition the page shows, never for a fixed time.
// Locators wait by themselves (`locator.waitFor`, `filter({hasText})`); these cover the rest.
import assert from 'node:assert/strict';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Locator} Locator */

/**
 * Until nothing on the page moves: no CSS transition or finite animation running (a dialog fading
 * in, a drawer sliding, a ripple). For screenshots and for measuring laid-out boxes; endless
 * animations (spinners, the low-balance pulse) are not waited for.
 * @param {Page} page
 */
export async function still(page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity)
  );
}

/**
 * Until the text of `locator` is no longer what it is now (a clock or a duration ticking).
 * @param {Locator} locator
 * @param {{ timeout?: number }} [options]
 */
export async function textChanges(locator, { timeout } = {}) {
  const handle = await locator.elementHandle();
  assert.ok(handle, 'the element is on the page');
  const before = await handle.innerText();
  const now = /** @type {const} */ ([handle, before]);
  await locator
    .page()
    .waitForFunction(([el, text]) => el instanceof HTMLElement && el.innerText !== text, now, { timeout });
  return before;
}

/**
 * Until `ready` holds, `refresh()` (a click on a screen's own Search or Refresh, awaiting its
 * answer) between looks: for what the server learns on its own and a list does not push (a call's
 * end written by the bridge, its rating done by a worker). `ready` is a locator to wait for, or
 * `async (timeout) => ...` waiting for its condition up to `timeout` ms. Each look waits up to
 * `every` ms; the whole up to `timeout`.
 * @param {Locator | ((timeout: number) => Promise<unknown>)} ready
 * @param {() => Promise<unknown>} refresh
 * @param {{ timeout?: number, every?: number }} [options]
 */
export async function refreshUntil(ready, refresh, { timeout = 20000, every = 1000 } = {}) {
  /** @type {(timeout: number) => Promise<unknown>} */
  const look = typeof ready === 'function' ? ready : (t) => ready.waitFor({ timeout: t });
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      await look(Math.max(1, Math.min(every, deadline - Date.now())));
      return;
    } catch (err) {
      if (Date.now() >= deadline) throw err;
    }
    await refresh();
  }
}

/**
 * Click `button` and wait for the answer of the API call it makes (`path` in its URL).
 * @param {Page} page
 * @param {Locator} button
 * @param {string} path
 */
export async function clickAndAnswer(page, button, path) {
  const [response] = await Promise.all([page.waitForResponse((r) => r.url().includes(`/api${path}`)), button.click()]);
  return response;
}

/**
 * Until the IVR form (dialog or campaign tab) has its settings from the server: it opens on the defaults and enables Save
 * once they arrive (a field set or read before then is overwritten or stale).
 * @param {Page} page
 */
export const ivrLoaded = (page) =>
  page.waitForFunction(() => {
    const save = document.querySelector('[data-testid="ivr-save"]');
    return save instanceof HTMLButtonElement && !save.disabled;
  });
