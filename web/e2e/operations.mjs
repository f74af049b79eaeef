// Browser scenarios of the operations screens against the real API: users (/customer), vendors
// (/vendor), number uploads (/uploadnumber), the buyer's targets (/buyer-target) and IVR Auth
// (/ivr, /user_ivr). run.mjs registers them with its harness and helpers; each checks its main
// action through the API afterwards.
import assert from 'node:assert/strict';

export default function registerOperationScenarios({ test, newPage, signIn, sessions, settle, shot, BASE }) {
  /** A call to the API as `role` (signed in already): `{status, data, message}`. */
  async function api(role, method, path, body) {
    const res = await fetch(`${BASE}/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${sessions[role].token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body)
    });
    const json = await res.json().catch(() => ({}));
    return { status: res.status, data: json.data, message: json.message };
  }

  /** The first user whose name, email or company matches `text`, as the API lists it. */
  const findUser = async (text) => (await api('admin', 'GET', `/user/details?params=${encodeURIComponent(text)}`)).data.data[0];

  /** Choose `option` in the searchable picker whose input has test id `testId`, typing `typed`. */
  async function pick(page, testId, typed, option) {
    await page.getByTestId(testId).fill(typed);
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  const noErrors = (...pages) => assert.deepEqual(pages.flatMap((p) => p.__errors || []), [], 'no page errors');

  test('admin: users on /customer — add a customer on a tariff, edit, token, deactivate; refusals shown; an administrator added and removed', async () => {
    const page = await newPage(1440);
    await signIn(page, 'admin', '/customer');
    const stamp = Date.now() % 100000;
    const tariff = (await api('admin', 'POST', '/tariff/add', { name: `E2E Retail ${stamp}`, currency: 'USD' })).data;
    await page.reload(); // the tariff picker reads the tariffs when the screen opens
    const [name, email] = [`E2E Customer ${stamp}`, `e2e.customer.${stamp}@example.com`];

    await page.getByTestId('user-add').click();
    const dialog = page.getByTestId('user-dialog');
    await page.getByTestId('user-name').fill(name);
    await page.getByTestId('user-email').fill(email);
    await page.getByTestId('user-password').fill('short');
    await dialog.getByTestId('user-save').click();
    await dialog.getByText('Password must be at least 8 characters').waitFor();
    await page.getByTestId('user-password').fill('custpass1');
    await pick(page, 'user-tariff', 'E2E Retail', `${tariff.name} (USD)`);
    await pick(page, 'user-timezone', 'Tokyo', 'Asia/Tokyo');
    await dialog.getByTestId('user-save').click();
    await page.getByTestId('customer-notice').filter({ hasText: `User ${name} created.` }).waitFor();
    await page.getByRole('textbox', { name: 'Search users' }).fill(email);
    const row = page.locator(`[data-testid="customer-row"][data-name="${name}"]`);
    await row.getByTestId('customer-tariff').filter({ hasText: tariff.name }).waitFor();
    assert.equal(await row.getByTestId('customer-balance').innerText(), '$0.00');
    let stored = await findUser(email);
    assert.deepEqual([stored.role, stored.tariff_id, stored.timezone, stored.status], [2, tariff.id, 'Asia/Tokyo', 'active']);

    await row.getByTestId('customer-edit').click();
    assert.equal(await page.getByTestId('user-tariff').inputValue(), `${tariff.name} (USD)`, 'the tariff shows by name');
    await pick(page, 'user-timezone', 'Chicago', 'America/Chicago');
    await dialog.getByTestId('user-save').click();
    await page.getByTestId('customer-notice').filter({ hasText: `User ${name} saved.` }).waitFor();
    await row.getByText('America/Chicago').waitFor();
    assert.equal((await findUser(email)).timezone, 'America/Chicago');
    await settle(page);
    await shot(page, 'users-1440.png');

    // A new API token, shown once; it signs API calls in as that user.
    await row.getByTestId('customer-token').click();
    await page.getByTestId('token-issue').click();
    const token = await page.getByTestId('token-value').inputValue();
    const profile = await (await fetch(`${BASE}/api/profile`, { headers: { Authorization: `Bearer ${token}` } })).json();
    assert.equal(profile.data.name, name, "the token is the user's");
    await page.getByTestId('token-dialog').getByRole('button', { name: 'Close' }).click();

    // With a payment in its wallet the server keeps it, and the screen says why.
    assert.equal((await api('admin', 'POST', '/topup/add', { user_id: stored.id, amount: '12.5', note: 'e2e' })).status, 201);
    await page.reload();
    await page.getByRole('textbox', { name: 'Search users' }).fill(email);
    assert.equal(await row.getByTestId('customer-balance').innerText(), '$12.50');
    await row.getByTestId('customer-delete').click();
    await page.getByTestId('confirm-button').click();
    await page.getByTestId('customer-error').filter({ hasText: 'deactivate it instead' }).waitFor();
    await row.getByTestId('customer-promote').click();
    await page.getByTestId('confirm-button').click();
    await page.getByTestId('customer-error').filter({ hasText: 'create a separate administrator account' }).waitFor();
    stored = await findUser(email);
    assert.deepEqual([stored.role, stored.status], [2, 'active'], 'neither deleted nor promoted');

    await row.getByTestId('customer-status').click();
    await page.getByTestId('customer-notice').filter({ hasText: `User ${name} is now inactive.` }).waitFor();
    assert.equal((await findUser(email)).status, 'inactive');

    // Another administrator, added from the same dialog: no tariff, no impersonation.
    const [adminName, adminEmail] = [`E2E Admin ${stamp}`, `e2e.admin.${stamp}@example.com`];
    await page.getByTestId('user-add').click();
    await page.getByRole('combobox', { name: 'Account' }).click();
    await page.getByRole('option', { name: 'Administrator' }).click();
    assert.equal(await page.getByTestId('user-tariff').count(), 0, 'administrators have no tariff');
    await page.getByTestId('user-name').fill(adminName);
    await page.getByTestId('user-email').fill(adminEmail);
    await page.getByTestId('user-password').fill('adminpass1');
    await dialog.getByTestId('user-save').click();
    await page.getByTestId('customer-notice').filter({ hasText: `User ${adminName} created.` }).waitFor();
    assert.equal((await findUser(adminEmail)).role, 1);
    await page.getByRole('textbox', { name: 'Search users' }).fill(adminEmail);
    const adminRow = page.locator(`[data-testid="customer-row"][data-name="${adminName}"]`);
    await adminRow.waitFor();
    assert.equal(await adminRow.getByTestId('impersonate-button').count(), 0);
    assert.equal(await adminRow.getByTestId('customer-promote').count(), 0);
    await adminRow.getByTestId('customer-delete').click();
    await page.getByTestId('confirm-button').click();
    await page.getByTestId('customer-notice').filter({ hasText: `User ${adminName} deleted.` }).waitFor();
    assert.equal(await findUser(adminEmail), undefined, 'gone');

    // A customer with nothing yet can become an administrator.
    const fresh = (await api('admin', 'POST', '/user/add', { name: `E2E Fresh ${stamp}`, email: `e2e.fresh.${stamp}@example.com`, password: 'freshpass1' })).data;
    await page.getByRole('textbox', { name: 'Search users' }).fill(fresh.email);
    await page.locator(`[data-testid="customer-row"][data-name="${fresh.name}"]`).getByTestId('customer-promote').click();
    await page.getByTestId('confirm-button').click();
    await page.getByTestId('customer-notice').filter({ hasText: `${fresh.name} is now an administrator.` }).waitFor();
    assert.equal((await findUser(fresh.email)).role, 1);
    noErrors(page);
    await page.context().close();
  });

  test('admin: vendors on /vendor — add, edit, what one supplies, delete refused then allowed, deactivate', async () => {
    const page = await newPage(1440);
    await signIn(page, 'admin', '/vendor');
    const stamp = Date.now() % 100000;
    const name = `E2E Carrier ${stamp}`;
    const findVendor = async (text) => (await api('admin', 'GET', `/vendor/details?params=${encodeURIComponent(text)}`)).data.data[0];

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
    await page.getByTestId('vendor-notice').filter({ hasText: `Vendor ${name} created.` }).waitFor();
    const vendor = await findVendor(name);
    assert.deepEqual([vendor.contact_name, vendor.email, vendor.status], ['Nora Noc', `noc.${stamp}@carrier.example`, 'active']);

    // The same name again (other case) is refused under its field.
    await page.getByTestId('vendor-add').click();
    await page.getByTestId('vendor-name').fill(name.toUpperCase());
    await dialog.getByTestId('vendor-save').click();
    await dialog.getByText('A vendor with this name already exists.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('textbox', { name: 'Search vendors' }).fill(name);
    const row = page.locator(`[data-testid="vendor-row"][data-name="${name}"]`);
    await row.getByTestId('vendor-edit').click();
    await page.getByTestId('vendor-phone').fill('+44 20 7946 0000');
    await dialog.getByTestId('vendor-save').click();
    await page.getByTestId('vendor-notice').filter({ hasText: `Vendor ${name} saved.` }).waitFor();
    assert.equal((await findVendor(name)).phone, '+44 20 7946 0000');

    // A number and an inbound trunk from this vendor: listed under it, and they keep it from being deleted.
    const number = `+44207947${String(stamp % 10000).padStart(4, '0')}`;
    assert.equal((await api('admin', 'POST', '/number/add', { number, vendor_id: vendor.id, monthly_fee: '2' })).status, 201);
    const trunk = `e2e-in-${stamp}`;
    assert.equal((await api('admin', 'POST', '/trunk/add', { name: trunk, direction: 'inbound', host: '127.0.0.1', vendor_id: vendor.id })).status, 201);
    await row.getByTestId('vendor-supply').click();
    const supply = page.getByTestId('supply-dialog');
    await supply.getByTestId('supply-number-row').filter({ hasText: number }).waitFor();
    assert.match(await supply.getByTestId('supply-number-row').innerText(), /Pool\s+\$2\.00\s+active/);
    await supply.getByTestId('supply-trunk-row').filter({ hasText: trunk }).waitFor();
    assert.equal(await supply.getByTestId('supply-number-title').innerText(), 'Numbers (1)');
    await settle(page);
    await shot(page, 'vendor-supply-1440.png');
    await supply.getByRole('button', { name: 'Close' }).click();

    await row.getByTestId('vendor-delete').click();
    await page.getByTestId('confirm-button').click();
    await page.getByTestId('vendor-error').filter({ hasText: 'still supplies 1 number(s) and 1 trunk(s)' }).waitFor();
    await row.getByTestId('vendor-status').click();
    await page.getByTestId('vendor-notice').filter({ hasText: `Vendor ${name} is now inactive.` }).waitFor();
    assert.equal((await findVendor(name)).status, 'inactive');

    // One that supplies nothing goes.
    const spare = (await api('admin', 'POST', '/vendor/add', { name: `E2E Spare ${stamp}` })).data;
    await page.getByRole('textbox', { name: 'Search vendors' }).fill(spare.name);
    await page.locator(`[data-testid="vendor-row"][data-name="${spare.name}"]`).getByTestId('vendor-delete').click();
    await page.getByTestId('confirm-button').click();
    await page.getByTestId('vendor-notice').filter({ hasText: `Vendor ${spare.name} deleted.` }).waitFor();
    assert.equal(await findVendor(spare.name), undefined, 'gone');
    await settle(page);
    await shot(page, 'vendors-1440.png');
    noErrors(page);
    await page.context().close();
  });
}
