// Browser scenario of a target's real-time bidding settings (docs/bidding.md) against the real API:
// the customer makes a target a bidder on /target, the form refuses bad settings under their
// fields, the API keeps what was saved, an edit starts from it and switching bidding off clears it.
// run.mjs registers it; run alone with E2E_ONLY=bidder.
import assert from 'node:assert/strict';
import { apiAs } from './api.mjs';
import { startNewTarget } from './targets.mjs';

export default function registerBiddingScenario({ test, newPage, signIn, sessions, shot, BASE }) {
  const api = apiAs(BASE, sessions);
  /** The customer's target named `name`, as the API lists it. */
  async function storedTarget(name) {
    const { data } = await api('customer', 'GET', `/target/details?params=${encodeURIComponent(name)}`);
    return data.data.find((t) => t.name === name);
  }

  test('customer: a target made a real-time bidder on /target, bad settings refused, then switched off', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/target');
    const name = `E2E Bidder ${Date.now() % 100000}`;
    const dialog = await startNewTarget(page, name);
    assert.equal(await page.getByTestId('target-ping_url').count(), 0, 'bidding fields show once switched on');
    await page.getByTestId('target-bidding').check();
    await page.getByTestId('target-ping_url').fill('bids.acme.example/ping');
    await page.getByTestId('target-bid_deadline_ms').fill('20');
    await dialog.getByTestId('target-save').click();
    await dialog.getByText('Ping URL must be an http:// or https:// URL').waitFor();
    await dialog.getByText('Bid deadline: whole milliseconds from 50 to 5000').waitFor();
    await page.getByTestId('target-ping_url').fill('https://bids.acme.example/ping');
    await page.getByTestId('target-bid_deadline_ms').fill('250');
    await page.getByTestId('target-min_bid').fill('2.5');
    await shot(page, 'target-bidder-1440.png');
    await dialog.getByTestId('target-save').click();
    await page.getByTestId('target-notice').filter({ hasText: `Target ${name} created.` }).waitFor();
    let stored = await storedTarget(name);
    assert.deepEqual([stored.ping_url, stored.post_url, stored.bid_deadline_ms, stored.min_bid], ['https://bids.acme.example/ping', null, 250, '2.5000']);

    await page.getByRole('textbox', { name: 'Search targets' }).fill(name);
    const row = page.locator(`[data-testid="target-row"][data-name="${name}"]`);
    await row.getByTestId('target-edit').click();
    assert.equal(await page.getByTestId('target-ping_url').inputValue(), 'https://bids.acme.example/ping', 'the dialog starts from the target');
    assert.equal(await page.getByTestId('target-min_bid').inputValue(), '2.5');
    await page.getByTestId('target-bidding').uncheck();
    await dialog.getByTestId('target-save').click();
    await page.getByTestId('target-notice').filter({ hasText: `Target ${name} saved.` }).waitFor();
    stored = await storedTarget(name);
    assert.deepEqual([stored.ping_url, stored.min_bid], [null, null]);
    await page.context().close();
  });
}
