// IVR Auth: the customer goes from its campaign's dialog to /user_ivr and sets PINs (their rules
// refused first); the admin finds the campaign on /ivr by customer name and turns IVR off.
import assert from 'node:assert/strict';
import { noErrors } from '../page-errors.mjs';
import { pickExact } from '../pickers.mjs';
import { ivrLoaded, still } from '../waits.mjs';

// The API's answers, as the generated client types them.
/** @typedef {import('../../src/client/types.gen.ts').IvrSettings} IvrSettings */

/** @param {import('../run.mjs').Harness} harness */
export default function registerIvrScenarios({ test, newPage, signIn, nameOfCustomer, shot, api }) {
  test('IVR Auth: the customer reaches /user_ivr from its campaign and sets PINs; the admin finds it on /ivr by customer and turns it off', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/campaign');
    const stamp = Date.now() % 100000;
    const name = `E2E IVR ${stamp}`;
    const created = await api('customer', 'POST', '/campaign/add', { name });
    assert.equal(created.status, 201, created.message);
    const campaignId = created.data.id;
    await page.reload();
    await page.getByRole('textbox', { name: 'Search campaigns' }).fill(name);
    await page.locator(`[data-testid="campaign-row"][data-name="${name}"]`).getByTestId('campaign-edit').click();
    await page.getByTestId('campaign-ivr-link').click();
    await page.waitForURL(/\/user_ivr$/);
    const dialog = page.getByTestId('ivr-dialog');
    await dialog.getByText(`IVR authentication of ${name}`).waitFor();
    await ivrLoaded(page);
    await page.getByTestId('ivr-enabled').check();
    await dialog.getByTestId('ivr-save').click();
    await dialog.getByText('An enabled IVR needs at least one PIN').waitFor();
    await page.getByTestId('ivr-pins').fill('1234, 567');
    await dialog.getByTestId('ivr-save').click();
    await dialog.getByText('Every PIN must have 4 digits; 567 does not').waitFor();
    await page.getByTestId('ivr-pins').fill('1234\n5678');
    await page.getByTestId('ivr-new-pin').click();
    assert.match(await page.getByTestId('ivr-pins').inputValue(), /^1234, 5678, \d{4}$/, 'a random 4-digit PIN added');
    await page.getByTestId('ivr-ivr_prompt').fill('enter-pin');
    await page.getByTestId('ivr-ivr_attempts').fill('2');
    await dialog.getByTestId('ivr-save').click();
    await page
      .getByTestId('ivr-notice')
      .filter({ hasText: `IVR settings of ${name} saved.` })
      .waitFor();
    await page.getByRole('textbox', { name: 'Search campaigns' }).fill(name);
    const row = page.locator(`[data-testid="ivr-row"][data-name="${name}"]`);
    await row.getByTestId('ivr-state').filter({ hasText: 'On' }).waitFor();
    assert.equal(await row.getByTestId('ivr-pin-count').innerText(), '3');
    /** @type {IvrSettings} */
    const stored = (await api('customer', 'GET', `/campaign/ivr/${campaignId}`)).data;
    assert.deepEqual(
      [stored.ivr_enabled, stored.ivr_prompt, stored.ivr_attempts, stored.ivr_digits],
      [true, 'enter-pin', 2, 4]
    );
    assert.equal(stored.ivr_pins.length, 3);
    assert.ok(stored.ivr_pins.includes('1234') && stored.ivr_pins.includes('5678'));
    await still(page);
    await shot(page, 'user-ivr-1440.png');
    noErrors(page);
    await page.context().close();

    const admin = await newPage(1440);
    await signIn(admin, 'admin', '/ivr');
    const customerName = nameOfCustomer();
    await pickExact(admin, 'ivr-customer', customerName.slice(0, 5), customerName);
    await admin.getByRole('combobox', { name: 'IVR' }).click();
    await admin.getByRole('option', { name: 'on' }).click();
    await admin.getByRole('textbox', { name: 'Search campaigns' }).fill(name);
    const adminRow = admin.locator(`[data-testid="ivr-row"][data-name="${name}"]`);
    // Until the row reads so (the list shown before the filters applied may hold it first).
    const shown = `${name}\\s+${customerName}\\s+On\\s+enter-pin\\s+4\\s+3\\s+2`;
    await admin.waitForFunction(([rowName, pattern]) => {
      const el = document.querySelector(`[data-testid="ivr-row"][data-name="${rowName}"]`);
      return el instanceof HTMLElement && new RegExp(pattern).test(el.innerText);
    }, /** @type {const} */ ([name, shown]));
    await adminRow.getByTestId('ivr-edit').click();
    await ivrLoaded(admin);
    assert.equal(await admin.getByTestId('ivr-ivr_attempts').inputValue(), '2', 'read from the server');
    await admin.getByTestId('ivr-enabled').uncheck();
    await admin.getByTestId('ivr-dialog').getByTestId('ivr-save').click();
    await admin
      .getByTestId('ivr-notice')
      .filter({ hasText: `IVR settings of ${name} saved.` })
      .waitFor();
    await adminRow.waitFor({ state: 'detached' }); // the list shows campaigns with IVR on only
    await still(admin);
    await shot(admin, 'ivr-1440.png');
    /** @type {IvrSettings} */
    const after = (await api('admin', 'GET', `/campaign/ivr/${campaignId}`)).data;
    assert.deepEqual([after.ivr_enabled, after.ivr_pins.length], [false, 3], 'off, PINs kept');
    noErrors(admin);
    await admin.context().close();
  });
}
