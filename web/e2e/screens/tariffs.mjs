// The admin's tariffs (/tariff) and rate cards (/rate-card): a tariff added and edited, rates by
// hand and by CSV (a bad line refuses the whole file), exported, a rate deactivated and deleted,
// the tariff deleted; a 100,000-line card imported with its progress shown. Checked through the API.
import assert from 'node:assert/strict';
import { cellHas } from '../cells.mjs';
import { downloaded } from '../downloads.mjs';
import { still } from '../waits.mjs';
import { noErrors } from '../page-errors.mjs';

// The API's answers, as the generated client types them.
/** @typedef {import('../../src/client/types.gen.ts').TariffOut} TariffOut */

/** @param {import('../run.mjs').Harness} harness */
export default function registerTariffScenarios({ test, newPage, signIn, shot, api, BASE, TEST_TIMEOUT }) {
  const stamp = Date.now() % 100000;

  test('admin: a tariff and its rate card: add, edit, rates by hand and by CSV, export, delete', async () => {
    const page = await newPage(1440);
    await signIn(page, 'admin', '/tariff');
    const name = `E2E Tariff ${stamp}`;
    await page.getByTestId('tariff-add').click();
    const dialog = page.getByTestId('tariff-dialog');
    await page.getByTestId('tariff-currency').fill('euro');
    await dialog.getByTestId('tariff-save').click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByText('A three-letter currency code, such as USD or EUR').waitFor();
    await page.getByTestId('tariff-name').fill(name);
    await page.getByTestId('tariff-currency').fill('eur');
    await dialog.getByTestId('tariff-save').click();
    await page
      .getByTestId('tariff-notice')
      .filter({ hasText: `Tariff ${name} created.` })
      .waitFor();
    await page.getByRole('textbox', { name: 'Search tariffs' }).fill(name);
    const row = page.locator(`[data-testid="tariff-row"][data-name="${name}"]`);
    await cellHas(row, 'Currency', 'EUR');
    await row.getByTestId('tariff-edit').click();
    await page.getByTestId('tariff-description').fill('Wholesale, from the E2E run');
    await dialog.getByTestId('tariff-save').click();
    await cellHas(row, 'Description', 'Wholesale, from the E2E run');
    const saved = await api('admin', 'GET', `/tariff/details?params=${encodeURIComponent(name)}`);
    /** @type {TariffOut | undefined} */
    const tariff = saved.data.data[0];
    assert.ok(tariff, `the API has ${name}`);
    assert.deepEqual(
      [tariff.currency, tariff.description],
      ['EUR', 'Wholesale, from the E2E run'],
      'the API has what the screen saved'
    );

    // Opening the tariff shows its rates: one by hand...
    await row.getByTestId('tariff-open').click();
    await page.waitForURL(new RegExp(`/rate-card\\?tariff=${tariff.id}$`));
    await page.getByText(`Rates of ${name} (EUR)`).waitFor();
    await page.getByTestId('rate-add').click();
    const rateDialog = page.getByTestId('rate-dialog');
    await page.getByTestId('rate-prefix').fill('020');
    await page.getByTestId('rate-rate_per_minute').fill('0.0125');
    await rateDialog.getByTestId('rate-save').click();
    await rateDialog.getByText('Prefix: up to 15 digits starting with a country code, e.g. 4420').waitFor();
    await page.getByTestId('rate-prefix').fill('+4420');
    await page.getByTestId('rate-effective_from').fill('2026-01-01');
    await rateDialog.getByTestId('rate-save').click();
    await page.getByTestId('rate-notice').filter({ hasText: 'Rate 4420 added.' }).waitFor();
    const london = page.locator('[data-testid="rate-row"][data-prefix="4420"]');
    await cellHas(london, 'Per minute', '€0.0125');
    await cellHas(london, 'Country', 'GB');
    await cellHas(london, 'From (UTC)', '2026-01-01 00:00');

    // ...then a card by CSV: a bad line refuses the file (nothing imported), the fixed file loads.
    await page.getByTestId('rate-import').click();
    const importer = page.getByTestId('import-dialog');
    /** @param {string} third the third line */
    const card = (third) => ({
      name: 'card.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`prefix,rate,connection_fee\n33,0.02,0\n${third}\n49,0.03,0.01\n`)
    });
    await page.getByTestId('import-file').setInputFiles(card('1415,abc,0'));
    await importer.getByTestId('import-upload').click();
    await importer.getByTestId('import-refusal').filter({ hasText: 'Nothing was imported' }).waitFor();
    assert.match(
      await importer.locator('[data-testid="import-line"][data-line="3"]').innerText(),
      /rate must be a number/
    );
    assert.equal((await api('admin', 'GET', `/rate/by/${tariff.id}`)).data.total, 1, 'a refused file adds nothing');
    await page.getByTestId('import-file').setInputFiles(card('1415,0.0085,0'));
    await importer.getByTestId('import-upload').click();
    await importer.getByTestId('import-result').filter({ hasText: '3 rates imported. 3 new, 0 replaced' }).waitFor();
    await still(page);
    await shot(page, 'rate-import-1440.png');
    await importer.getByRole('button', { name: 'Close' }).click();
    await page.locator('[data-testid="rate-row"][data-prefix="1415"]').waitFor();
    // Rates keep 4 places in every row: $0.0200 beside $0.0085, never $0.02 beside $0.0085.
    await cellHas(page.locator('[data-testid="rate-row"][data-prefix="33"]'), 'Per minute', '€0.0200');
    await cellHas(page.locator('[data-testid="rate-row"][data-prefix="1415"]'), 'Per minute', '€0.0085');
    assert.equal((await api('admin', 'GET', `/rate/by/${tariff.id}`)).data.total, 4, 'the API has the imported rates');

    const exported = await downloaded(page, page.getByTestId('rate-export'));
    const lines = exported.data.trim().split('\r\n');
    assert.equal(
      lines[0],
      'prefix,country,rate,connection_fee,initial_increment,billing_increment,min_duration,effective_from'
    );
    assert.equal(lines.length, 5, 'the header and the four rates');
    assert.ok(
      lines.some((l) => l.startsWith('4420,GB,0.0125,0.0000,60,60,0,2026-01-01T00:00:00')),
      exported.data
    );
    await still(page);
    await shot(page, 'rate-card-1440.png');

    await page.getByRole('textbox', { name: 'Search prefixes' }).fill('49');
    const berlin = page.locator('[data-testid="rate-row"][data-prefix="49"]');
    await cellHas(berlin, 'Connect fee', '€0.0100'); // 4 places in every row of a rate column
    await berlin.getByTestId('rate-status').click();
    await page.getByTestId('rate-notice').filter({ hasText: 'Rate 49 is now inactive.' }).waitFor();
    await berlin.getByTestId('rate-delete').click();
    await page.getByTestId('confirm-button').click();
    await page.getByTestId('rate-notice').filter({ hasText: 'Rate 49 deleted.' }).waitFor();
    assert.equal((await api('admin', 'GET', `/rate/by/${tariff.id}`)).data.total, 3);

    // No customer uses it, so it can be deleted, with its rates.
    await page.goto(`${BASE}/tariff`);
    await page.getByRole('textbox', { name: 'Search tariffs' }).fill(name);
    await row.getByTestId('tariff-customers-open').click();
    await page.getByTestId('tariff-customers').getByText('No customer uses this tariff.').waitFor();
    await page.getByTestId('tariff-customers').getByRole('button', { name: 'Close' }).click();
    await still(page);
    await shot(page, 'tariffs-1440.png');
    await row.getByTestId('tariff-delete').click();
    await page.getByTestId('confirm-button').click();
    await page
      .getByTestId('tariff-notice')
      .filter({ hasText: `Tariff ${name} deleted.` })
      .waitFor();
    assert.equal((await api('admin', 'GET', `/tariff/details?params=${encodeURIComponent(name)}`)).data.total, 0);
    noErrors(page);
    await page.context().close();
  });

  test(
    'admin: a 100,000-line rate card imports, its progress shown',
    async () => {
      const page = await newPage(1440);
      await signIn(page, 'admin');
      const made = await api('admin', 'POST', '/tariff/add', { name: `E2E Big Card ${stamp}`, currency: 'USD' });
      const id = made.data.id;
      const lines = ['prefix,rate'];
      for (let i = 0; i < 100000; i += 1) lines.push(`1${String(i).padStart(6, '0')},0.0${(i % 90) + 10}`);
      await page.goto(`${BASE}/rate-card?tariff=${id}`);
      await page.getByText(`Rates of E2E Big Card ${stamp} (USD)`).waitFor();
      await page.getByTestId('rate-import').click();
      const importer = page.getByTestId('import-dialog');
      await page
        .getByTestId('import-file')
        .setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
      await importer.getByTestId('import-upload').click();
      await importer.getByTestId('import-progress').waitFor();
      await importer
        .getByTestId('import-result')
        .filter({ hasText: '100000 rates imported.' })
        .waitFor({ timeout: 90000 });
      assert.equal(
        (await api('admin', 'GET', `/rate/by/${id}?perpage=1`)).data.total,
        100000,
        'the API has every line'
      );
      await importer.getByRole('button', { name: 'Close' }).click();
      await page.getByText(/^1–10 of 100,?000$/).waitFor(); // the list pages through them
      assert.equal((await api('admin', 'DELETE', `/tariff/${id}`)).status, 200);
      noErrors(page);
      await page.context().close();
    },
    { timeout: 2 * TEST_TIMEOUT }
  );
}
