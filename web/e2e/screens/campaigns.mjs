// The customer's campaigns (/campaign): added (a ring timeout out of range refused first), edited,
// "Test routing" for a number not on the platform, deleted; the whisper spoken from text with its
// preview (a file that is no WAV refused); a call webhook (a bad URL refused, its secret shown,
// paused); its website numbers (the pool on, the site origin, the script tag). Checked through the
// API afterwards.
import assert from 'node:assert/strict';
import { cellHas } from '../cells.mjs';
import { noErrors } from '../page-errors.mjs';

// The API's answers, as the generated client types them.
/** @typedef {import('../../src/client/types.gen.ts').CampaignOut} CampaignOut */
/** @typedef {import('../../src/client/types.gen.ts').WebhookOut} WebhookOut */

/** @param {import('../run.mjs').Harness} harness */
export default function registerCampaignScenarios({ test, newPage, signIn, shot, api }) {
  test('customer: add, edit, test routing for and delete a campaign on /campaign', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/campaign');
    const name = `E2E Leads ${Date.now() % 100000}`;
    await page.getByTestId('campaign-add').click();
    const dialog = page.getByTestId('campaign-dialog');
    await page.getByTestId('campaign-name').fill(name);
    await page.getByTestId('campaign-ring_timeout').fill('3');
    await dialog.getByTestId('campaign-save').click();
    await dialog.getByText('Ring timeout must be a whole number from 5 to 300').waitFor();
    await page.getByTestId('campaign-ring_timeout').fill('45');
    await page.getByTestId('campaign-record').check();
    await dialog.getByTestId('campaign-save').click();
    await page
      .getByTestId('campaign-notice')
      .filter({ hasText: `Campaign ${name} created.` })
      .waitFor();
    await page.getByRole('textbox', { name: 'Search campaigns' }).fill(name);
    const row = page.locator(`[data-testid="campaign-row"][data-name="${name}"]`);
    await cellHas(row, 'Features', /Recorded/);
    await cellHas(row, 'Ring (s)', '45');

    await row.getByTestId('campaign-edit').click();
    await page.getByTestId('campaign-name').fill(name); // same name: no clash with itself
    await page.getByTestId('campaign-ring_timeout').fill('20');
    await dialog.getByTestId('campaign-save').click();
    await page
      .getByTestId('campaign-notice')
      .filter({ hasText: `Campaign ${name} saved.` })
      .waitFor();
    await cellHas(row, 'Ring (s)', '20');

    // No number points at it yet: the dry run says the call would not route, and why.
    await page.getByTestId('dryrun-open').click();
    await page.getByTestId('dryrun-did').fill('+442079460999');
    await page.getByTestId('dryrun-caller').fill('+447700900123');
    await page.getByTestId('dryrun-run').click();
    await page.getByTestId('dryrun-outcome').filter({ hasText: 'NO_ROUTE' }).waitFor();
    assert.match(
      await page.getByTestId('dryrun-dialog').getByTestId('call-trail').innerText(),
      /not a number on this platform/
    );
    await page.getByTestId('dryrun-dialog').getByRole('button', { name: 'Close' }).click();

    await row.getByTestId('campaign-delete').click();
    await page.getByTestId('confirm-button').click();
    await page
      .getByTestId('campaign-notice')
      .filter({ hasText: `Campaign ${name} deleted.` })
      .waitFor();
    await row.waitFor({ state: 'detached' });
    noErrors(page);
    await page.context().close();
  });

  test("customer: a campaign's whisper, spoken from text with a preview; a file that is no WAV refused", async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/campaign');
    const name = `E2E Whisper ${Date.now() % 100000}`;
    await page.getByTestId('campaign-add').click();
    await page.getByTestId('campaign-name').fill(name);
    await page.getByTestId('campaign-dialog').getByTestId('campaign-save').click();
    await page
      .getByTestId('campaign-notice')
      .filter({ hasText: `Campaign ${name} created.` })
      .waitFor();
    await page.getByRole('textbox', { name: 'Search campaigns' }).fill(name);
    const row = page.locator(`[data-testid="campaign-row"][data-name="${name}"]`);

    await row.getByTestId('campaign-whisper').click();
    const dialog = page.getByTestId('whisper-dialog');
    await dialog.getByTestId('whisper-summary').filter({ hasText: 'No whisper' }).waitFor();
    await page.getByTestId('whisper-mode-text').check();
    await page.getByTestId('whisper-text').fill('Call from campaign Acme Roofing');
    await dialog.getByTestId('whisper-save').click();
    await page
      .getByTestId('campaign-notice')
      .filter({ hasText: 'Whisper saved. The target hears “Call from campaign Acme Roofing”' })
      .waitFor();

    // Open again: what the target will hear, spoken by the server, plays in the page (a real WAV).
    await row.getByTestId('campaign-whisper').click();
    await dialog.getByTestId('whisper-summary').filter({ hasText: 'talk time starts after it' }).waitFor();
    const preview = dialog.getByTestId('whisper-preview');
    await page.waitForFunction(
      (el) => el instanceof HTMLMediaElement && el.duration > 1 && el.duration < 5,
      await preview.elementHandle()
    );

    // A file that is no WAV: the server says why, and the spoken whisper stays.
    await page.getByTestId('whisper-mode-recording').check();
    await page
      .getByTestId('whisper-file')
      .setInputFiles({ name: 'notes.wav', mimeType: 'audio/wav', buffer: Buffer.from('not audio at all') });
    await dialog.getByTestId('whisper-save').click();
    await dialog.getByText(/not a PCM WAV file/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const listed = await api('customer', 'GET', `/campaign/details?params=${encodeURIComponent(name)}`);
    const stored = await api('customer', 'GET', `/campaign/whisper/${listed.data.data[0].id}`);
    assert.equal(stored.data.mode, 'text');
    noErrors(page);
    await page.context().close();
  });

  test('customer: a campaign webhook on /campaign — a bad URL refused, added with its events, secret shown, paused', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/campaign');
    const name = `E2E Hooks ${Date.now() % 100000}`;
    /** @type {CampaignOut} */
    const campaign = (await api('customer', 'POST', '/campaign/add', { name })).data;
    await page.reload();
    await page.locator(`[data-testid="campaign-row"][data-name="${name}"]`).getByTestId('campaign-webhooks').click();
    const dialog = page.getByTestId('webhooks-dialog');
    await dialog.getByText('No webhooks yet.').waitFor();

    await page.getByTestId('webhook-url').fill('https://hooks.example.com/in?c={calller}');
    await page.getByTestId('webhook-save').click();
    await dialog.getByText('{calller} is no token').waitFor();
    assert.equal(
      (await api('customer', 'GET', `/webhook/details?campaign_id=${campaign.id}`)).data.total,
      0,
      'nothing saved'
    );

    const url = 'https://hooks.example.com/in?c={caller}&p={payout}';
    await page.getByTestId('webhook-url').fill(url);
    await page.getByTestId('webhook-event-incoming').check();
    await page.getByTestId('webhook-event-rated').check();
    await page.getByTestId('webhook-save').click();
    await page.getByTestId('webhooks-notice').filter({ hasText: 'Webhook added.' }).waitFor();
    const row = dialog.locator(`[data-testid="webhook-row"][data-url="${url}"]`);
    await row.getByText('incoming, completed, rated').waitFor();
    /** @type {WebhookOut[]} */
    const [stored] = (await api('customer', 'GET', `/webhook/details?campaign_id=${campaign.id}`)).data.data;
    assert.ok(stored, 'the API has the webhook');
    assert.deepEqual([stored.url, stored.events, stored.status], [url, ['incoming', 'completed', 'rated'], 'active']);

    await row.getByTestId('webhook-show-secret').click();
    await row.getByTestId('webhook-secret').filter({ hasText: stored.secret }).waitFor();
    await row.getByTestId('webhook-pause').click();
    await page.getByTestId('webhooks-notice').filter({ hasText: 'Webhook paused.' }).waitFor();
    await row.getByTestId('webhook-paused').waitFor();
    await shot(page, 'webhooks-1440.png');
    /** @type {WebhookOut[]} */
    const [paused] = (await api('customer', 'GET', `/webhook/details?campaign_id=${campaign.id}`)).data.data;
    assert.ok(paused, 'the API has the webhook');
    assert.deepEqual([paused.status, paused.paused_reason], ['paused', 'paused by its owner']);
    noErrors(page);
  });

  test("customer: a campaign's website numbers — pool on, timeout, page number, site origin, the script tag", async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/campaign');
    const name = `E2E Website ${Date.now() % 100000}`;
    /** @type {CampaignOut} */
    const campaign = (await api('customer', 'POST', '/campaign/add', { name })).data;
    await page.reload();
    await page
      .locator(`[data-testid="campaign-row"][data-name="${name}"]`)
      .getByTestId('campaign-website-numbers')
      .click();
    const dialog = page.getByTestId('website-numbers-dialog');
    await dialog.getByText('The campaign has no active numbers.').waitFor();
    await page.getByTestId('website-pool-enabled').check();
    await page.getByTestId('website-timeout').fill('30');
    await page.getByTestId('website-page-number').fill('+44 20 7183 8750');
    await page.getByTestId('website-origins').fill('https://shop.example');
    await page.getByTestId('website-save').click();
    await dialog.getByText('Website numbers saved.').waitFor();
    const tag = await page.getByTestId('website-script-tag').inputValue();
    assert.match(tag, /^<script async src="http[^"]+\/api\/dni\/[A-Za-z0-9_-]{32}\/script\.js"><\/script>$/);
    await dialog
      .getByTestId('website-pressure')
      .filter({ hasText: 'Numbers needed for the traffic seen: 0' })
      .waitFor();
    await shot(page, 'website-numbers-1440.png');
    const pool = (await api('customer', 'GET', `/dni/pool/${campaign.id}`)).data;
    assert.deepEqual([pool.enabled, pool.timeout_minutes, pool.page_number], [true, 30, '+44 20 7183 8750']);
    const site = (await api('customer', 'GET', `/dni/site/${campaign.user_id}`)).data;
    assert.deepEqual(site.origins, ['https://shop.example']);
    noErrors(page);
    await page.context().close();
  });
}
