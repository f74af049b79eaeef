// Browser scenario of call webhooks against the real API: a customer adds one to a campaign from
// /campaign (a bad URL refused, a good one added), sees its secret and pauses it; checked through
// the API afterwards. run.mjs registers it with its harness.
import assert from 'node:assert/strict';
import { apiAs } from './api.mjs';

export default function registerWebhookScenarios({ test, newPage, signIn, sessions, shot, BASE }) {
  const api = apiAs(BASE, sessions);

  test('customer: a campaign webhook on /campaign — a bad URL refused, added with its events, secret shown, paused', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/campaign');
    const name = `E2E Hooks ${Date.now() % 100000}`;
    const campaign = (await api('customer', 'POST', '/campaign/add', { name })).data;
    await page.reload();
    await page.locator(`[data-testid="campaign-row"][data-name="${name}"]`).getByTestId('campaign-webhooks').click();
    const dialog = page.getByTestId('webhooks-dialog');
    await dialog.getByText('No webhooks yet.').waitFor();

    await page.getByTestId('webhook-url').fill('https://hooks.example.com/in?c={calller}');
    await page.getByTestId('webhook-save').click();
    await dialog.getByText('{calller} is no token').waitFor();
    assert.equal((await api('customer', 'GET', `/webhook/details?campaign_id=${campaign.id}`)).data.total, 0, 'nothing saved');

    const url = 'https://hooks.example.com/in?c={caller}&p={payout}';
    await page.getByTestId('webhook-url').fill(url);
    await page.getByTestId('webhook-event-incoming').check();
    await page.getByTestId('webhook-event-rated').check();
    await page.getByTestId('webhook-save').click();
    await page.getByTestId('webhooks-notice').filter({ hasText: 'Webhook added.' }).waitFor();
    const row = dialog.locator(`[data-testid="webhook-row"][data-url="${url}"]`);
    await row.getByText('incoming, completed, rated').waitFor();
    const [stored] = (await api('customer', 'GET', `/webhook/details?campaign_id=${campaign.id}`)).data.data;
    assert.deepEqual([stored.url, stored.events, stored.status], [url, ['incoming', 'completed', 'rated'], 'active']);

    await row.getByTestId('webhook-show-secret').click();
    await row.getByTestId('webhook-secret').filter({ hasText: stored.secret }).waitFor();
    await row.getByTestId('webhook-pause').click();
    await page.getByTestId('webhooks-notice').filter({ hasText: 'Webhook paused.' }).waitFor();
    await row.getByTestId('webhook-paused').waitFor();
    await shot(page, 'webhooks-1440.png');
    const [paused] = (await api('customer', 'GET', `/webhook/details?campaign_id=${campaign.id}`)).data.data;
    assert.deepEqual([paused.status, paused.paused_reason], ['paused', 'paused by its owner']);
    assert.deepEqual(page.__errors || [], [], 'no page errors');
  });
}
