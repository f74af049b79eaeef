// Traffic sources (issue 33): the customer opens /source from the dashboard's "Calls by source" card,
// adds a source with a fixed publisher payout (an amount with more places than the currency's minor
// unit refused), puts a tracking number in it on /number, and sees it counted on /source and stored
// through the API; the source is then deleted and the number goes back to the pool.
import assert from 'node:assert/strict';
import { cellHas } from '../cells.mjs';
import { noErrors } from '../page-errors.mjs';
import { still } from '../waits.mjs';

// The API's answers, as the generated client types them.
/** @typedef {import('../../src/client/types.gen.ts').NumberRow} NumberRow */
/** @typedef {import('../../src/client/types.gen.ts').NumberOut} NumberOut */
/** @typedef {import('../../src/client/types.gen.ts').SourceRow} SourceRow */

/** @param {import('../run.mjs').Harness} harness */
export default function registerSourceScenarios({ test, newPage, signIn, shot, api, sessions }) {
  test('customer: sources — reached from the dashboard, one added, a number put in it, seen on /source', async () => {
    const stamp = Date.now() % 10000;
    const name = `E2E Radio ${stamp}`;
    const page = await newPage(1440);
    await signIn(page, 'customer', '/dashboard');
    const customerId = /** @type {{ user_id: number }} */ (JSON.parse(sessions.customer?.user || '{}')).user_id;

    // A number of the customer's, from the admin (no setup fee).
    const admin = await newPage(1440);
    await signIn(admin, 'admin', '/dashboard');
    const number = `+44207948${String(stamp).padStart(4, '0')}`;
    const added = await api('admin', 'POST', '/number/add', { number, setup_fee: '0', monthly_fee: '0' });
    assert.equal(added.status, 201, added.message);
    const numberId = /** @type {NumberOut} */ (added.data).id;
    const given = await api('admin', 'POST', '/number/give', { user_id: customerId, number_ids: [numberId] });
    assert.equal(given.status, 200, given.message);

    await page.getByTestId('dashboard-sources').waitFor();
    await page.getByTestId('dashboard-sources-link').click();
    await page.waitForURL(/\/source$/);
    await page.getByTestId('source-add').click();
    const dialog = page.getByTestId('source-dialog');
    await page.getByTestId('source-name').fill(name);
    await page.getByTestId('source-utm_source').fill(`radio${stamp}`);
    await dialog.getByRole('combobox').click();
    await page.getByRole('option', { name: 'Fixed per converted call' }).click();
    await page.getByTestId('source-payout_amount').fill('2.505');
    await dialog.getByTestId('source-save').click();
    await dialog.getByText(/with at most 2 decimals/).waitFor(); // the minor unit: nothing sent
    await page.getByTestId('source-payout_amount').fill('2.50');
    await dialog.getByTestId('source-save').click();
    await page
      .getByTestId('source-notice')
      .filter({ hasText: `Source ${name} added.` })
      .waitFor();
    const row = page.locator(`[data-testid="source-row"][data-name="${name}"]`);
    await row.getByTestId('source-payout').filter({ hasText: '$2.50 per converted call' }).waitFor();
    const listed = await api('customer', 'GET', `/sources?params=${encodeURIComponent(name)}`);
    const source = /** @type {SourceRow} */ (listed.data.data[0]);
    assert.deepEqual([source.payout_kind, source.payout_amount, source.numbers], ['fixed', '2.5000', 0]);

    // The number put in it, on the customer's numbers list.
    await page.goto(page.url().replace(/\/source$/, '/number'));
    await page.getByRole('textbox', { name: 'Search numbers' }).fill(number);
    const numberRow = page.locator(`[data-testid="number-row"][data-number="${number}"]`);
    await numberRow.getByRole('combobox').nth(1).click(); // the source's (the campaign's is first)
    await page.getByRole('option', { name }).click();
    await page
      .getByTestId('number-notice')
      .filter({ hasText: `Calls to ${number} are now source ${name}'s.` })
      .waitFor();
    await page.reload();
    await cellHas(numberRow, 'Source', name);
    const mine = await api('customer', 'GET', `/number/details?params=${encodeURIComponent(number)}`);
    assert.equal(/** @type {NumberRow} */ (mine.data.data[0]).source_id, source.id);

    // Back on /source through the link beside the numbers: it has one number now.
    await page.getByTestId('number-sources-link').click();
    await page.getByRole('textbox', { name: 'Search sources' }).fill(name);
    await cellHas(row, 'Numbers', '1');
    await still(page);
    await shot(page, 'sources-1440.png');

    // Deleted (no call names it): the number stays, with no source; then back to the pool.
    await row.getByTestId('source-delete').click();
    await page.getByTestId('confirm-button').click();
    await page
      .getByTestId('source-notice')
      .filter({ hasText: `Source ${name} deleted.` })
      .waitFor();
    const after = await api('customer', 'GET', `/number/details?params=${encodeURIComponent(number)}`);
    assert.equal(/** @type {NumberRow} */ (after.data.data[0]).source_id, null);
    const released = await api('admin', 'DELETE', '/number', { ids: [numberId] });
    assert.equal(released.status, 200, released.message);
    noErrors(page, admin);
    await page.context().close();
    await admin.context().close();
  });
}
