// The customer's targets (/target): open hours, caps and payout (the dialog's and the server's
// refusals first), edited, assigned to a campaign in order and removed, deactivated, deleted; a
// real-time bidder (docs/bidding.md); the caller-region settings (docs/regions.md), with a
// campaign's blocked line type and the dashboard's regions card. Checked through the API.
import assert from 'node:assert/strict';
import { cellHas } from '../cells.mjs';
import { still } from '../waits.mjs';
import { noErrors } from '../page-errors.mjs';

// The API's answers, as the generated client types them.
/** @typedef {import('../../src/client/types.gen.ts').BuyerOut} BuyerOut */
/** @typedef {import('../../src/client/types.gen.ts').CampaignOut} CampaignOut */
/** @typedef {import('../../src/client/types.gen.ts').PageDataTargetRow} PageDataTargetRow */
/** @typedef {import('../../src/client/types.gen.ts').TargetRow} TargetRow */

/**
 * Opens /target's add dialog and fills what every target needs: its name, its buyer and where it is
 * dialled. Returns the dialog, for the scenario's own fields and its save.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 * @param {{ buyer?: string, destination?: string }} [options]
 */
async function startNewTarget(page, name, { buyer = 'Bea Buyer', destination = '+1 415 555 0100' } = {}) {
  await page.getByTestId('target-add').click();
  const dialog = page.getByTestId('target-dialog');
  await page.getByTestId('target-name').fill(name);
  await dialog.getByRole('combobox', { name: 'Buyer' }).click();
  await page.getByRole('option', { name: buyer }).click();
  await page.getByTestId('target-destination').fill(destination);
  return dialog;
}

/** @param {import('../run.mjs').Harness} harness */
export default function registerTargetScenarios({ test, newPage, signIn, shot, api, BASE }) {
  /**
   * The customer's target named `name`, as the API lists it.
   * @param {string} name
   */
  async function storedTarget(name) {
    /** @type {PageDataTargetRow} */
    const listed = (await api('customer', 'GET', `/target/details?params=${encodeURIComponent(name)}`)).data;
    const target = listed.data.find((t) => t.name === name);
    assert.ok(target, `the API lists ${name}`);
    return target;
  }

  test('customer: a target with open hours, assigned to a campaign in order, then removed', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/target');
    const stamp = Date.now() % 100000;
    const name = `E2E Desk ${stamp}`;
    await page.getByTestId('target-add').click();
    const dialog = page.getByTestId('target-dialog');
    await dialog.getByTestId('target-save').click();
    await dialog.getByText('Buyer is required').waitFor();
    await page.getByTestId('target-name').fill(name);
    await dialog.getByRole('combobox', { name: 'Buyer' }).click();
    await page.getByRole('option', { name: 'Bea Buyer' }).click();
    await page.getByTestId('target-destination').fill('12'); // the server's check, under its field
    await page.getByTestId('target-concurrency_cap').fill('2');
    await page.getByTestId('target-payout').fill('12.50');
    await page.getByTestId('target-always_open').uncheck();
    await page.getByTestId('target-hours-mon').fill('9:00-12:00, 13:00-17:30');
    await page.getByTestId('target-hours-sat').fill('10:00 to 14:00');
    await dialog.getByTestId('target-save').click();
    await dialog.getByText('"10:00 to 14:00" is not a window like 09:00-17:00').waitFor();
    await page.getByTestId('target-hours-sat').fill('10:00-14:00');
    await page.getByTestId('target-timezone').fill('America/Chic');
    await page.getByRole('option', { name: 'America/Chicago' }).click();
    await dialog.getByTestId('target-save').click();
    await dialog.getByText(/use an E\.164 number such as/).waitFor();
    await page.getByTestId('target-destination').fill('+1 415 555 0100');
    await dialog.getByTestId('target-save').click();
    await page
      .getByTestId('target-notice')
      .filter({ hasText: `Target ${name} created.` })
      .waitFor();
    await page.getByRole('textbox', { name: 'Search targets' }).fill(name);
    const row = page.locator(`[data-testid="target-row"][data-name="${name}"]`);
    await cellHas(row, 'Destination', '+14155550100');
    assert.equal(
      await row.getByTestId('target-hours').innerText(),
      'Mon 09:00-12:00, 13:00-17:30; Sat 10:00-14:00 (America/Chicago)'
    );
    assert.equal(await row.getByTestId('target-caps').innerText(), '2 at once');
    await cellHas(row, 'Buyer', 'Bea Buyer');
    await cellHas(row, 'Payout', '$12.50');
    await shot(page, 'targets-1440.png');

    await row.getByTestId('target-edit').click();
    assert.equal(
      await page.getByTestId('target-hours-mon').inputValue(),
      '09:00-12:00, 13:00-17:30',
      'the dialog starts from the target'
    );
    await page.getByTestId('target-concurrency_cap').fill('');
    await page.getByTestId('target-daily_cap').fill('50');
    await page.getByTestId('target-always_open').check();
    await dialog.getByTestId('target-save').click();
    await page
      .getByTestId('target-notice')
      .filter({ hasText: `Target ${name} saved.` })
      .waitFor();
    await row.getByTestId('target-hours').filter({ hasText: 'Always open' }).waitFor();
    assert.equal(await row.getByTestId('target-caps').innerText(), '50/day');

    // The campaign's targets: assign the new one second in line, reorder it, remove it.
    const campaign = `E2E Routed ${stamp}`;
    await page.goto(`${BASE}/campaign`);
    await page.getByTestId('campaign-add').click();
    await page.getByTestId('campaign-name').fill(campaign);
    await page.getByTestId('campaign-dialog').getByTestId('campaign-save').click();
    await page
      .getByTestId('campaign-notice')
      .filter({ hasText: `Campaign ${campaign} created.` })
      .waitFor();
    await page.getByRole('textbox', { name: 'Search campaigns' }).fill(campaign);
    const crow = page.locator(`[data-testid="campaign-row"][data-name="${campaign}"]`);
    await crow.getByTestId('campaign-open').click();
    await page.getByTestId('campaign-tab-targets').click();
    const links = page.getByTestId('campaign-panel-targets');
    await links.getByText('No targets yet').waitFor();
    await links.getByRole('combobox', { name: 'Assign a target' }).click();
    await page.getByRole('option', { name: `${name} (+14155550100)` }).click();
    await links.getByTestId('links-new-priority').fill('0');
    await links.getByTestId('links-add').click();
    await links
      .getByTestId('links-error')
      .filter({ hasText: 'Priority must be a whole number from 1 to 100' })
      .waitFor();
    await links.getByTestId('links-new-priority').fill('2');
    await links.getByTestId('links-new-weight').fill('30');
    await links.getByTestId('links-add').click();
    await links
      .getByTestId('links-notice')
      .filter({ hasText: `${name} now takes this campaign's calls.` })
      .waitFor();
    const link = links.locator(`[data-testid="links-row"][data-name="${name}"]`);
    assert.equal(await link.getByTestId('links-priority').inputValue(), '2');
    assert.equal(await link.getByTestId('links-weight').inputValue(), '30');
    await link.getByTestId('links-priority').fill('1');
    await link.getByTestId('links-save').click();
    await links
      .getByTestId('links-notice')
      .filter({ hasText: `${name}: priority 1, weight 30.` })
      .waitFor();
    await page.reload(); // read afresh from the server
    await link.getByTestId('links-priority').waitFor();
    assert.equal(await link.getByTestId('links-priority').inputValue(), '1', 'the order was saved');
    await still(page);
    await shot(page, 'campaign-targets-1440.png');
    await link.getByTestId('links-remove').click();
    await links.getByText('No targets yet').waitFor();

    await page.goto(`${BASE}/target`);
    await page.getByRole('textbox', { name: 'Search targets' }).fill(name);
    await row.getByTestId('target-status').click();
    await page
      .getByTestId('target-notice')
      .filter({ hasText: `Target ${name} is now inactive.` })
      .waitFor();
    await row.getByTestId('target-delete').click();
    await page.getByTestId('confirm-button').click();
    await page
      .getByTestId('target-notice')
      .filter({ hasText: `Target ${name} deleted.` })
      .waitFor();
    await row.waitFor({ state: 'detached' });
    noErrors(page);
    await page.context().close();
  });

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
    await page
      .getByTestId('target-notice')
      .filter({ hasText: `Target ${name} created.` })
      .waitFor();
    let stored = await storedTarget(name);
    assert.deepEqual(
      [stored.ping_url, stored.post_url, stored.bid_deadline_ms, stored.min_bid],
      ['https://bids.acme.example/ping', null, 250, '2.5000']
    );

    await page.getByRole('textbox', { name: 'Search targets' }).fill(name);
    const row = page.locator(`[data-testid="target-row"][data-name="${name}"]`);
    await row.getByTestId('target-edit').click();
    assert.equal(
      await page.getByTestId('target-ping_url').inputValue(),
      'https://bids.acme.example/ping',
      'the dialog starts from the target'
    );
    assert.equal(await page.getByTestId('target-min_bid').inputValue(), '2.5');
    await page.getByTestId('target-bidding').uncheck();
    await dialog.getByTestId('target-save').click();
    await page
      .getByTestId('target-notice')
      .filter({ hasText: `Target ${name} saved.` })
      .waitFor();
    stored = await storedTarget(name);
    assert.deepEqual([stored.ping_url, stored.min_bid], [null, null]);
    await page.context().close();
  });

  test('customer: a target takes callers by region, a campaign blocks a line type, the dashboard charts regions', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/target');
    const stamp = Date.now() % 100000;
    const name = `E2E Region desk ${stamp}`;
    const dialog = await startNewTarget(page, name);
    assert.equal(await page.getByTestId('target-region-places').count(), 0, 'every region: no places to list');
    await dialog.getByRole('combobox', { name: 'Regions taken' }).click();
    await page.getByRole('option', { name: 'Every caller but those from these places' }).click();
    await page.getByTestId('target-region-places').fill('GB:London, US:Californa');
    await page.getByTestId('target-line-mobile').check();
    await page.getByTestId('target-accept-unknown').uncheck();
    await dialog.getByTestId('target-save').click();
    await dialog
      .getByText(/'Californa' is not a region of US/)
      .first()
      .waitFor(); // the server's check
    await page.getByTestId('target-region-places').fill('GB:London, US:California');
    await dialog.getByTestId('target-save').click();
    await page
      .getByTestId('target-notice')
      .filter({ hasText: `Target ${name} created.` })
      .waitFor();
    /** @type {TargetRow[]} */
    const [saved] = (await api('customer', 'GET', `/target/details?params=${encodeURIComponent(name)}`)).data.data;
    assert.ok(saved, `the API has ${name}`);
    assert.deepEqual(saved.region_rules, {
      mode: 'exclude',
      regions: ['GB:London', 'US:California'],
      excluded_line_types: ['mobile'],
      accept_unknown: false
    });
    await page.getByRole('textbox', { name: 'Search targets' }).fill(name);
    await page.locator(`[data-testid="target-row"][data-name="${name}"]`).getByTestId('target-edit').click();
    assert.equal(
      await page.getByTestId('target-region-places').inputValue(),
      'GB:London, US:California',
      'the dialog starts from the target'
    );
    assert.equal(await page.getByTestId('target-line-mobile').isChecked(), true);
    await shot(page, 'target-regions-1440.png');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const campaign = `E2E Region campaign ${stamp}`;
    await page.goto(`${BASE}/campaign`);
    await page.getByTestId('campaign-add').click();
    await page.getByTestId('campaign-name').fill(campaign);
    await page.getByTestId('campaign-line-other').check();
    await page.getByTestId('campaign-region-places').fill('US:Texas');
    await page.getByTestId('campaign-dialog').getByTestId('campaign-save').click();
    await page
      .getByTestId('campaign-notice')
      .filter({ hasText: `Campaign ${campaign} created.` })
      .waitFor();
    /** @type {CampaignOut[]} */
    const [made] = (await api('customer', 'GET', `/campaign/details?params=${encodeURIComponent(campaign)}`)).data.data;
    assert.ok(made, `the API has ${campaign}`);
    assert.deepEqual(made.region_rules, {
      blocked_regions: ['US:Texas'],
      blocked_line_types: ['other'],
      accept_unknown: true
    });

    await page.goto(`${BASE}/dashboard`);
    await page.getByTestId('dashboard-regions').waitFor();
    noErrors(page);
    await page.context().close();
  });
  test("customer: a new target starts in the account's zone; without a trunk its row says it is never dialled", async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/target');
    const name = `E2E No trunk ${Date.now() % 100000}`;
    const dialog = await startNewTarget(page, name);
    // The customer is in Europe/Berlin: open hours 5 hours off were the old default (UTC).
    assert.equal(await page.getByTestId('target-timezone').inputValue(), 'Europe/Berlin');
    await dialog.getByText('No trunk: calls never reach this target until one is set').waitFor();
    await dialog.getByTestId('target-save').click();
    await page
      .getByTestId('target-notice')
      .filter({ hasText: `Target ${name} created.` })
      .waitFor();
    assert.equal((await storedTarget(name)).timezone, 'Europe/Berlin');
    const row = page.locator(`[data-testid="target-row"][data-name="${name}"]`);
    assert.equal(await row.getByTestId('target-cannot-dial').innerText(), 'Not dialled: no trunk');
    await shot(page, 'target-no-trunk-1440.png');
    noErrors(page);
    await page.context().close();
  });
  test('customer: ticked targets are paused and resumed together, in one call', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/target');
    const stamp = Date.now() % 100000;
    /** @type {BuyerOut[]} */
    const buyers = (await api('customer', 'GET', '/buyer/details?perpage=100')).data.data;
    const bea = buyers.find((b) => b.name === 'Bea Buyer');
    assert.ok(bea, 'Bea Buyer is a buyer of the customer');
    const names = [`E2E Bulk A ${stamp}`, `E2E Bulk B ${stamp}`];
    for (const name of names) {
      const r = await api('customer', 'POST', '/target/add', { buyer_id: bea.id, name, destination: '+14155550100' });
      assert.equal(r.status, 201, r.message);
    }
    await page.reload();
    await page.getByRole('textbox', { name: 'Search targets' }).fill(`E2E Bulk`);
    for (const name of names) {
      await page
        .locator(`[data-testid="target-row"][data-name="${name}"]`)
        .getByTestId('target-select')
        .locator('input')
        .check();
    }
    await page.getByTestId('target-bulk-pause').filter({ hasText: 'Pause 2 selected' }).click();
    await page.getByTestId('target-notice').filter({ hasText: '2 targets paused.' }).waitFor();
    for (const name of names) assert.equal((await storedTarget(name)).status, 'inactive');
    assert.equal(await page.getByTestId('target-bulk-pause').count(), 0, 'the selection is cleared');
    noErrors(page);
    await page.context().close();
  });
}
