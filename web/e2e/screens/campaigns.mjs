// The customer's campaigns (/campaign): added (a ring timeout out of range refused first), edited,
// "Test routing" for a number not on the platform, deleted. A campaign's page (/campaign/:id/:tab),
// opened from the list: every tab at its own URL (Back walks through them), the settings, a target's
// weight, the IVR PIN, a whisper, a webhook, a number assigned and released; the whisper spoken from
// text with its preview (a file that is no WAV refused); a call webhook (a bad URL refused, its
// secret shown, paused); its website numbers (the pool on, the site origin, the script tag) on the Numbers tab.
// Checked through the API afterwards.
import assert from 'node:assert/strict';
import { cellHas } from '../cells.mjs';
import { noErrors } from '../page-errors.mjs';
import { ivrLoaded, still } from '../waits.mjs';

// The API's answers, as the generated client types them.
/** @typedef {import('../../src/client/types.gen.ts').CampaignOut} CampaignOut */
/** @typedef {import('../../src/client/types.gen.ts').WebhookOut} WebhookOut */
/** @typedef {import('../../src/client/types.gen.ts').AssignedTarget} AssignedTarget */
/** @typedef {import('../../src/client/types.gen.ts').BuyerOut} BuyerOut */

const TABS = ['settings', 'targets', 'ivr', 'whisper', 'webhooks', 'numbers'];

/** @param {import('../run.mjs').Harness} harness */
export default function registerCampaignScenarios({ test, newPage, signIn, shot, api, BASE, TEST_TIMEOUT }) {
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

  test(
    "customer: a campaign's page from the list — each tab at its URL, settings, a target's weight, the IVR PIN, a whisper, a webhook, a number assigned and released, Back through the tabs",
    async () => {
      const admin = await newPage(1440);
      await signIn(admin, 'admin'); // the API's calls as the admin use its session
      await admin.context().close();
      const page = await newPage(1440);
      await signIn(page, 'customer', '/campaign');
      const stamp = Date.now() % 100000;
      const name = `E2E Page ${stamp}`;
      /** @type {CampaignOut} */
      const campaign = (await api('customer', 'POST', '/campaign/add', { name })).data;
      const id = campaign.id;
      // A target of the customer's buyer on the campaign, and a number of the customer's routing nowhere.
      /** @type {BuyerOut[]} */
      const buyers = (await api('customer', 'GET', '/buyer/details?perpage=100')).data.data;
      const buyer = buyers[0];
      assert.ok(buyer, 'the customer has a buyer');
      const target = `E2E Line ${stamp}`;
      const made = await api('customer', 'POST', '/target/add', {
        buyer_id: buyer.id,
        name: target,
        destination: '+14155550102'
      });
      assert.equal(made.status, 201, made.message);
      const linked = await api('customer', 'POST', '/camp/add', {
        campaign_id: id,
        targets: [{ target_id: made.data.id, priority: 1, weight: 1 }]
      });
      assert.ok(linked.status < 300, linked.message);
      const did = `+441134960${String(stamp % 1000).padStart(3, '0')}`;
      const added = await api('admin', 'POST', '/number/add', { number: did, setup_fee: '0', monthly_fee: '0' });
      assert.equal(added.status, 201, added.message);
      const given = await api('admin', 'POST', '/number/give', {
        user_id: campaign.user_id,
        number_ids: [added.data.id]
      });
      assert.ok(given.status < 300, given.message);

      await page.reload();
      await page.getByRole('textbox', { name: 'Search campaigns' }).fill(name);
      await page.locator(`[data-testid="campaign-row"][data-name="${name}"]`).getByTestId('campaign-open').click();
      await page.waitForURL(new RegExp(`/campaign/${id}$`));
      await page
        .getByTestId('page-title')
        .filter({ hasText: `Campaign ${name}` })
        .waitFor();

      // Settings: the campaign's form on the page, saved with the list's API.
      const settings = page.getByTestId('campaign-panel-settings');
      assert.equal(await settings.getByTestId('campaign-name').inputValue(), name);
      await settings.getByTestId('campaign-ring_timeout').fill('2');
      await settings.getByTestId('campaign-save').click();
      await settings.getByText('Ring timeout must be a whole number from 5 to 300').waitFor();
      await settings.getByTestId('campaign-ring_timeout').fill('40');
      await settings.getByTestId('campaign-save').click();
      await settings
        .getByTestId('campaign-form-notice')
        .filter({ hasText: `Campaign ${name} saved.` })
        .waitFor();
      assert.equal((await api('customer', 'GET', `/campaign/${id}`)).data.ring_timeout, 40);

      // Targets: a weight changed and saved.
      await page.getByTestId('campaign-tab-targets').click();
      await page.waitForURL(new RegExp(`/campaign/${id}/targets$`));
      const link = page.locator(
        `[data-testid="campaign-panel-targets"] [data-testid="links-row"][data-name="${target}"]`
      );
      await link.getByTestId('links-weight').fill('7');
      await link.getByTestId('links-save').click();
      await page
        .getByTestId('links-notice')
        .filter({ hasText: `${target}: priority 1, weight 7.` })
        .waitFor();
      /** @type {AssignedTarget[]} */
      const assigned = (await api('customer', 'GET', `/target/getAssignedTargetsForCampaign?campaign_id=${id}`)).data;
      assert.deepEqual(
        assigned.map((t) => [t.name, t.weight]),
        [[target, 7]]
      );

      // IVR: on, with a PIN.
      await page.getByTestId('campaign-tab-ivr').click();
      await page.waitForURL(new RegExp(`/campaign/${id}/ivr$`));
      const ivr = page.getByTestId('campaign-panel-ivr');
      await ivrLoaded(page);
      await ivr.getByTestId('ivr-enabled').check();
      await ivr.getByTestId('ivr-pins').fill('2468');
      await ivr.getByTestId('ivr-save').click();
      await ivr
        .getByTestId('ivr-form-notice')
        .filter({ hasText: `IVR settings of ${name} saved.` })
        .waitFor();
      const pins = (await api('customer', 'GET', `/campaign/ivr/${id}`)).data;
      assert.deepEqual([pins.ivr_enabled, pins.ivr_pins], [true, ['2468']]);

      // Whisper: spoken text.
      await page.getByTestId('campaign-tab-whisper').click();
      await page.waitForURL(new RegExp(`/campaign/${id}/whisper$`));
      const whisper = page.getByTestId('campaign-panel-whisper');
      await whisper.getByTestId('whisper-mode-text').check();
      await whisper.getByTestId('whisper-text').fill(`Call from ${name}`);
      await whisper.getByTestId('whisper-save').click();
      await whisper.getByTestId('whisper-form-notice').filter({ hasText: 'Whisper saved.' }).waitFor();
      assert.equal((await api('customer', 'GET', `/campaign/whisper/${id}`)).data.text, `Call from ${name}`);

      // Webhooks: one added.
      await page.getByTestId('campaign-tab-webhooks').click();
      await page.waitForURL(new RegExp(`/campaign/${id}/webhooks$`));
      const hooks = page.getByTestId('campaign-panel-webhooks');
      const url = `https://hooks.example.com/page/${stamp}?c={caller}`;
      await hooks.getByTestId('webhook-url').fill(url);
      await hooks.getByTestId('webhook-event-completed').check();
      await hooks.getByTestId('webhook-save').click();
      await hooks.getByTestId('webhooks-notice').filter({ hasText: 'Webhook added.' }).waitFor();
      /** @type {WebhookOut[]} */
      const stored = (await api('customer', 'GET', `/webhook/details?campaign_id=${id}`)).data.data;
      assert.deepEqual(
        stored.map((h) => h.url),
        [url]
      );

      // Numbers: the customer's number assigned to the campaign, then released from it.
      await page.getByTestId('campaign-tab-numbers').click();
      await page.waitForURL(new RegExp(`/campaign/${id}/numbers$`));
      const numbers = page.getByTestId('campaign-panel-numbers');
      await numbers.getByText('No numbers yet').waitFor();
      await numbers.getByRole('combobox', { name: 'Assign a number' }).click();
      await page.getByRole('option', { name: new RegExp(`^\\${did}`) }).click();
      await numbers.getByTestId('campaign-number-assign').click();
      await numbers
        .getByTestId('campaign-numbers-notice')
        .filter({ hasText: `${did} now routes to ${name}.` })
        .waitFor();
      const row = numbers.locator(`[data-testid="campaign-number-row"][data-number="${did}"]`);
      await row.waitFor();
      assert.equal((await api('customer', 'GET', `/number/${added.data.id}`)).data.campaign_id, id);
      await shot(page, 'campaign-page-numbers-1440.png');
      await row.getByTestId('campaign-number-release').click();
      await row.waitFor({ state: 'detached' });
      assert.equal((await api('customer', 'GET', `/number/${added.data.id}`)).data.campaign_id, null);

      // Back walks through the tabs in the order they were opened, then to the list.
      for (const tab of [...TABS].reverse().slice(1)) {
        await page.goBack();
        await page.waitForURL(new RegExp(`/campaign/${id}${tab === 'settings' ? '' : `/${tab}`}$`));
        await page.getByTestId(`campaign-panel-${tab}`).waitFor();
      }
      await page.goBack();
      await page.waitForURL(/\/campaign$/);
      await page.getByTestId('campaign-add').waitFor();
      noErrors(page);
      await page.context().close();

      // A tab's URL, opened afresh (shared), shows that tab with what was saved; on a 390 px phone
      // every tab fits the screen's width (wide tables scroll inside their panel, not the page).
      const phone = await newPage(390, 844);
      await signIn(phone, 'customer', `/campaign/${id}/whisper`);
      await phone
        .getByTestId('campaign-panel-whisper')
        .getByTestId('whisper-summary')
        .filter({ hasText: `Call from ${name}` })
        .waitFor();
      for (const tab of TABS) {
        await phone.goto(`${BASE}/campaign/${id}/${tab}`);
        await phone.getByTestId(`campaign-panel-${tab}`).waitFor();
        await still(phone);
        const width = await phone.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 390, `${tab} is ${width} px wide on a 390 px screen`);
      }
      await shot(phone, 'campaign-page-390.png');
      noErrors(phone);
      await phone.context().close();
    },
    { timeout: 3 * TEST_TIMEOUT } // it opens every tab twice, on two screens
  );

  test("customer: a campaign's whisper on its page, spoken from text with a preview; a file that is no WAV refused", async () => {
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

    await row.getByTestId('campaign-open').click();
    await page.getByTestId('campaign-tab-whisper').click();
    const dialog = page.getByTestId('campaign-panel-whisper');
    await dialog.getByTestId('whisper-summary').filter({ hasText: 'No whisper' }).waitFor();
    await page.getByTestId('whisper-mode-text').check();
    await page.getByTestId('whisper-text').fill('Call from campaign Acme Roofing');
    await dialog.getByTestId('whisper-save').click();
    await dialog
      .getByTestId('whisper-form-notice')
      .filter({ hasText: 'Whisper saved. The target hears “Call from campaign Acme Roofing”' })
      .waitFor();

    // Read again: what the target will hear, spoken by the server, plays in the page (a real WAV).
    await page.reload();
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
    const listed = await api('customer', 'GET', `/campaign/details?params=${encodeURIComponent(name)}`);
    const stored = await api('customer', 'GET', `/campaign/whisper/${listed.data.data[0].id}`);
    assert.equal(stored.data.mode, 'text');
    noErrors(page);
    await page.context().close();
  });

  test('customer: a campaign webhook on its page — a bad URL refused, added with its events, secret shown, paused', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/campaign');
    const name = `E2E Hooks ${Date.now() % 100000}`;
    /** @type {CampaignOut} */
    const campaign = (await api('customer', 'POST', '/campaign/add', { name })).data;
    await page.goto(`${BASE}/campaign/${campaign.id}/webhooks`); // a tab's URL opens it
    const dialog = page.getByTestId('campaign-panel-webhooks');
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
    const name = `E2E Website ${Date.now() % 100000}`;
    /** @type {CampaignOut} */
    const campaign = (await api('customer', 'POST', '/campaign/add', { name })).data;
    // The website numbers are on the campaign page's Numbers tab, under its numbers.
    await signIn(page, 'customer', `/campaign/${campaign.id}/numbers`);
    const panel = page.getByRole('main');
    await panel.getByText('The campaign has no active numbers.').waitFor();
    await page.getByTestId('website-pool-enabled').check();
    await page.getByTestId('website-timeout').fill('30');
    await page.getByTestId('website-page-number').fill('+44 20 7183 8750');
    await page.getByTestId('website-origins').fill('https://shop.example');
    await page.getByTestId('website-save').click();
    await panel.getByText('Website numbers saved.').waitFor();
    const tag = await page.getByTestId('website-script-tag').inputValue();
    assert.match(tag, /^<script async src="http[^"]+\/api\/dni\/[A-Za-z0-9_-]{32}\/script\.js"><\/script>$/);
    await panel.getByTestId('website-pressure').filter({ hasText: 'Numbers needed for the traffic seen: 0' }).waitFor();
    await shot(page, 'website-numbers-1440.png');
    const pool = (await api('customer', 'GET', `/dni/pool/${campaign.id}`)).data;
    assert.deepEqual([pool.enabled, pool.timeout_minutes, pool.page_number], [true, 30, '+44 20 7183 8750']);
    const site = (await api('customer', 'GET', `/dni/site/${campaign.user_id}`)).data;
    assert.deepEqual(site.origins, ['https://shop.example']);
    noErrors(page);
    await page.context().close();
  });
}
