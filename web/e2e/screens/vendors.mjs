// The admin's vendors (/vendor): added (a name taken in another case refused), edited, the number
// and trunk one supplies (the number added on /manage-number, its vendor picked by name), its
// delete refused while it supplies them, deactivated; a spare one deleted. Checked through the API.
import assert from 'node:assert/strict';
import { noErrors } from '../page-errors.mjs';
import { pickExact } from '../pickers.mjs';
import { still } from '../waits.mjs';

// The API's answers, as the generated client types them.
/** @typedef {import('../../src/client/types.gen.ts').NumberRow} NumberRow */
/** @typedef {import('../../src/client/types.gen.ts').VendorOut} VendorOut */

/** @param {import('../run.mjs').Harness} harness */
export default function registerVendorScenarios({ test, newPage, signIn, shot, api, BASE }) {
  test('admin: vendors on /vendor — add, edit, what one supplies, delete refused then allowed, deactivate', async () => {
    const page = await newPage(1440);
    await signIn(page, 'admin', '/vendor');
    const stamp = Date.now() % 100000;
    const name = `E2E Carrier ${stamp}`;
    /**
     * @param {string} text
     * @returns {Promise<VendorOut | undefined>}
     */
    const findVendor = async (text) =>
      (await api('admin', 'GET', `/vendor/details?params=${encodeURIComponent(text)}`)).data.data[0];
    /**
     * The vendor `text` finds, which the scenario has just made or changed.
     * @param {string} text
     */
    const storedVendor = async (text) => {
      const vendor = await findVendor(text);
      assert.ok(vendor, `the API lists ${text}`);
      return vendor;
    };

    await page.getByTestId('vendor-add').click();
    const dialog = page.getByTestId('vendor-dialog');
    await page.getByTestId('vendor-email').fill('noc@');
    await dialog.getByTestId('vendor-save').click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByText('Must be a valid email').waitFor();
    await page.getByTestId('vendor-name').fill(name);
    await page.getByTestId('vendor-contact_name').fill('Nora Noc');
    await page.getByTestId('vendor-email').fill(`noc.${stamp}@carrier.example`);
    await dialog.getByTestId('vendor-save').click();
    await page
      .getByTestId('vendor-notice')
      .filter({ hasText: `Vendor ${name} created.` })
      .waitFor();
    const vendor = await storedVendor(name);
    assert.deepEqual(
      [vendor.contact_name, vendor.email, vendor.status],
      ['Nora Noc', `noc.${stamp}@carrier.example`, 'active']
    );

    // The same name again (other case) is refused under its field.
    await page.getByTestId('vendor-add').click();
    await page.getByTestId('vendor-name').fill(name.toUpperCase());
    await dialog.getByTestId('vendor-save').click();
    await dialog.getByText('A vendor with this name already exists.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('textbox', { name: 'Search vendors' }).fill(name);
    const row = page.locator(`[data-testid="vendor-row"][data-name="${name}"]`);
    await row.getByTestId('vendor-edit').click();
    // Not a phone: refused beside the field; the form's check first, then the server's (a national
    // number needs a country, and the admin's zone, UTC, has none).
    await page.getByTestId('vendor-phone').fill('abc-not-a-phone');
    await dialog.getByTestId('vendor-save').click();
    await dialog.getByText('Must be a phone number, such as +44 20 7946 0713').waitFor();
    await page.getByTestId('vendor-phone').fill('020 7946 0000');
    await dialog.getByTestId('vendor-save').click();
    await dialog.getByText("'020 7946 0000' needs its country code, such as +44 20 7946 0713.").waitFor();
    await page.getByTestId('vendor-phone').fill('+44 20 7946 0000');
    await dialog.getByTestId('vendor-save').click();
    await page
      .getByTestId('vendor-notice')
      .filter({ hasText: `Vendor ${name} saved.` })
      .waitFor();
    assert.equal((await storedVendor(name)).phone, '+442079460000', 'stored in E.164');

    // A number and an inbound trunk from this vendor: listed under it, and they keep it from being deleted.
    // The number is added on /manage-number with its vendor picked by name.
    const number = `+44207947${String(stamp % 10000).padStart(4, '0')}`;
    await page.goto(`${BASE}/manage-number`);
    await page.getByTestId('number-add').click();
    await page.getByTestId('number-number').fill(number);
    await page.getByTestId('number-monthly_fee').fill('2');
    await pickExact(page, 'number-vendor', name.slice(0, 10), name);
    await page.getByTestId('number-dialog').getByTestId('number-save').click();
    await page
      .getByTestId('number-notice')
      .filter({ hasText: `Number ${number} added to the pool.` })
      .waitFor();
    /** @type {NumberRow | undefined} */
    const added = (await api('admin', 'GET', `/number/details?params=${encodeURIComponent(number)}`)).data.data[0];
    assert.equal(added?.vendor_id, vendor.id);
    await page.getByTestId('number-vendors').click();
    await page.waitForURL(/\/vendor$/);
    await page.getByRole('textbox', { name: 'Search vendors' }).fill(name);
    const trunk = `e2e-in-${stamp}`;
    assert.equal(
      (
        await api('admin', 'POST', '/trunk/add', {
          name: trunk,
          direction: 'inbound',
          host: '127.0.0.1',
          vendor_id: vendor.id
        })
      ).status,
      201
    );
    await row.getByTestId('vendor-supply').click();
    const supply = page.getByTestId('supply-dialog');
    await supply.getByTestId('supply-number-row').filter({ hasText: number }).waitFor();
    assert.match(await supply.getByTestId('supply-number-row').innerText(), /Pool\s+\$2\.00\s+active/);
    await supply.getByTestId('supply-trunk-row').filter({ hasText: trunk }).waitFor();
    assert.equal(await supply.getByTestId('supply-number-title').innerText(), 'Numbers (1)');
    await still(page);
    await shot(page, 'vendor-supply-1440.png');
    await supply.getByRole('button', { name: 'Close' }).click();

    await row.getByTestId('vendor-delete').click();
    await page.getByTestId('confirm-button').click();
    await page.getByTestId('vendor-error').filter({ hasText: 'still supplies 1 number(s) and 1 trunk(s)' }).waitFor();
    await row.getByTestId('vendor-status').click();
    await page
      .getByTestId('vendor-notice')
      .filter({ hasText: `Vendor ${name} is now inactive.` })
      .waitFor();
    assert.equal((await storedVendor(name)).status, 'inactive');

    // One that supplies nothing goes.
    /** @type {VendorOut} */
    const spare = (await api('admin', 'POST', '/vendor/add', { name: `E2E Spare ${stamp}` })).data;
    await page.getByRole('textbox', { name: 'Search vendors' }).fill(spare.name);
    await page.locator(`[data-testid="vendor-row"][data-name="${spare.name}"]`).getByTestId('vendor-delete').click();
    await page.getByTestId('confirm-button').click();
    await page
      .getByTestId('vendor-notice')
      .filter({ hasText: `Vendor ${spare.name} deleted.` })
      .waitFor();
    assert.equal(await findVendor(spare.name), undefined, 'gone');
    await still(page);
    await shot(page, 'vendors-1440.png');
    noErrors(page);
    await page.context().close();
  });
  test('admin: vendors are reached from where they are picked (trunk and number forms); the user form says what a customer is', async () => {
    const page = await newPage(1440);
    /** @type {Array<[string, string, string]>} */
    const forms = [
      ['/manage-trunk', 'trunk-add', 'trunk-vendor'],
      ['/manage-number', 'number-add', 'number-vendor']
    ];
    for (const [screen, add, picker] of forms) {
      await signIn(page, 'admin', screen);
      await page.getByTestId(add).click();
      await page.getByTestId(`${picker}-manage`).click();
      await page.waitForURL(/\/vendor$/);
      await page.getByTestId('vendor-add').waitFor();
    }
    await page.goto(`${BASE}/customer`);
    await page.getByTestId('user-add').click();
    const dialog = page.getByTestId('user-dialog');
    await dialog.getByText('A customer buys numbers, runs campaigns and pays from its wallet').waitFor();
    assert.equal(await dialog.getByText('Administrators manage the whole platform').count(), 0);
    noErrors(page);
    await page.context().close();
  });
}
