// Browser scenario of the caller-region settings (docs/regions.md): a customer sets a target's
// places, line types and unknown-region choice, sees the server refuse a region its data doesn't
// name, saves, and finds the settings again; a campaign blocks a line type; the dashboard shows its
// calls-by-region card. Each step is checked through the API afterwards.
import assert from 'node:assert/strict';
import { apiAs } from './api.mjs';
import { startNewTarget } from './targets.mjs';

export default function registerRegionScenarios({ test, newPage, signIn, sessions, shot, BASE }) {
  const api = apiAs(BASE, sessions);

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
    await dialog.getByText(/'Californa' is not a region of US/).first().waitFor(); // the server's check
    await page.getByTestId('target-region-places').fill('GB:London, US:California');
    await dialog.getByTestId('target-save').click();
    await page.getByTestId('target-notice').filter({ hasText: `Target ${name} created.` }).waitFor();
    const [saved] = (await api('customer', 'GET', `/target/details?params=${encodeURIComponent(name)}`)).data.data;
    assert.deepEqual(saved.region_rules, { mode: 'exclude', regions: ['GB:London', 'US:California'], excluded_line_types: ['mobile'], accept_unknown: false });
    await page.getByRole('textbox', { name: 'Search targets' }).fill(name);
    await page.locator(`[data-testid="target-row"][data-name="${name}"]`).getByTestId('target-edit').click();
    assert.equal(await page.getByTestId('target-region-places').inputValue(), 'GB:London, US:California', 'the dialog starts from the target');
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
    await page.getByTestId('campaign-notice').filter({ hasText: `Campaign ${campaign} created.` }).waitFor();
    const [made] = (await api('customer', 'GET', `/campaign/details?params=${encodeURIComponent(campaign)}`)).data.data;
    assert.deepEqual(made.region_rules, { blocked_regions: ['US:Texas'], blocked_line_types: ['other'], accept_unknown: true });

    await page.goto(`${BASE}/dashboard`);
    await page.getByTestId('dashboard-regions').waitFor();
    assert.deepEqual(page.__errors || [], [], 'no page errors');
    await page.context().close();
  });
}
