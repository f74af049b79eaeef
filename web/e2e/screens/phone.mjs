// The 390 px phone pass (issue 37): the dashboard, Live Calls and the campaign list fit a phone's
// width (no sideways scrolling of the page), each screen shot into the artifacts; Live Calls is a
// card per call whose Hang up button is on screen. And at 1440, Live Calls names the call's
// customer, campaign and buyer. The live call is the one tests/web/test_e2e.py puts up for the
// customer (E2E_PHONE_LIVE_CALLER).
import assert from 'node:assert/strict';
import { still } from '../waits.mjs';

const PHONE = { width: 390, height: 844 };
const SCREENS = [
  ['/dashboard', 'Dashboard', 'dashboard'],
  ['/live-calls', 'Live Calls', 'live-calls'],
  ['/campaign', 'Campaign', 'campaigns']
];

/** Run in the page: the screen's data is in (no skeleton row, no running progress bar). */
const loaded = () => {
  const main = document.querySelector('[data-testid="main-content"]');
  return Boolean(
    main &&
    main.querySelector('[data-testid="page-title"]') &&
    !main.querySelector('[data-testid="skeleton-row"], [role="progressbar"]:not([aria-valuenow])') &&
    !document.querySelector('[data-testid="page-loader"], [data-testid="shell-loading"]')
  );
};

/** Run in the page: how wide the page is against the window (it must not scroll sideways). */
const widths = () => ({ page: document.scrollingElement?.scrollWidth ?? 0, window: window.innerWidth });

const caller = process.env.E2E_PHONE_LIVE_CALLER;

/**
 * On Live Calls at 390 px: a card per call, not a table; the live call's Hang up button on screen.
 * @param {import('playwright-core').Page} page
 */
async function hangUpInReach(page) {
  assert.equal(await page.getByTestId('live-table').count(), 0, 'no table on a phone: a card per call');
  if (!caller) return;
  const card = page.locator(`[data-testid="live-row"][data-caller="${caller}"]`);
  await card.waitFor();
  const button = await card.getByTestId('live-hangup').boundingBox();
  assert.ok(button, 'the Hang up button is shown');
  assert.ok(
    button.x >= 0 && button.x + button.width <= PHONE.width && button.y + button.height <= PHONE.height,
    `Hang up at x ${button.x}..${button.x + button.width}, y ${button.y}: on screen`
  );
  assert.match(await card.innerText(), /Solar leads/);
}

/** @param {import('../run.mjs').Harness} harness */
export default function registerPhoneScenarios({ test, newPage, signIn, shot }) {
  for (const role of ['admin', 'customer']) {
    test(`${role} at 390 px: dashboard, live calls and campaigns fit the width; Hang up in reach`, async () => {
      const page = await newPage(PHONE.width, PHONE.height);
      for (const [path, title, name] of SCREENS) {
        await signIn(page, role, path);
        await page.getByTestId('page-title').filter({ hasText: title }).waitFor();
        await page.waitForFunction(loaded);
        await still(page);
        const { page: wide, window: win } = await page.evaluate(widths);
        assert.ok(wide <= win, `${path} at ${win} px: the page is ${wide} px wide and scrolls sideways`);
        await shot(page, `${role}-390-${name}.png`);
        if (name === 'live-calls') await hangUpInReach(page);
      }
      await page.context().close();
    });
  }

  if (caller) {
    test('admin at 1440: Live Calls names the customer, campaign and buyer', async () => {
      const page = await newPage(1440);
      await signIn(page, 'admin', '/live-calls');
      const row = page.locator(`[data-testid="live-row"][data-caller="${caller}"]`);
      await row.waitFor();
      assert.equal((await row.getByTestId('live-customer').innerText()).trim(), 'Alice Customer');
      assert.equal((await row.getByTestId('live-campaign').innerText()).trim(), 'Solar leads');
      assert.equal((await row.getByTestId('live-buyer').innerText()).trim(), 'Bea Buyer');
      await shot(page, 'admin-1440-live-calls.png');
      await page.context().close();
    });
  }
}
