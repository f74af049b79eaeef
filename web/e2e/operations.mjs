// Browser scenarios of the operations screens against the real API: users (/customer), vendors
// (/vendor), number uploads (/uploadnumber), the buyer's targets (/buyer-target) and IVR Auth
// (/ivr, /user_ivr). run.mjs registers them with its harness and helpers; each checks its main
// action through the API afterwards.
import assert from 'node:assert/strict';
import { apiAs } from './api.mjs';
import { ivrLoaded, still } from './waits.mjs';

export default function registerOperationScenarios({ test, newPage, signIn, signInUi, sessions, shot, BASE, customerName }) {
  const ACCOUNT_NAME = () => customerName || JSON.parse(sessions.customer?.user || '{}').name;
  const api = apiAs(BASE, sessions);
  const signedInAdmin = () => process.env.ADMIN_EMAIL;

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
    await still(page);
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

  test("admin: /customer's Audit tab lists an API token issued for another administrator, with who and from where", async () => {
    const page = await newPage(1440);
    await signIn(page, 'admin', '/customer');
    const stamp = Date.now() % 100000;
    const [name, email] = [`E2E Audited ${stamp}`, `e2e.audited.${stamp}@example.com`];
    assert.equal((await api('admin', 'POST', '/user/admin-user', { name, email, password: 'auditpass1' })).status, 201);
    await page.reload();
    await page.getByRole('textbox', { name: 'Search users' }).fill(email);
    const row = page.locator(`[data-testid="customer-row"][data-name="${name}"]`);
    await row.getByTestId('customer-token').click();
    await page.getByTestId('token-issue').click();
    await page.getByTestId('token-value').waitFor();
    await page.getByTestId('token-dialog').getByRole('button', { name: 'Close' }).click();

    await page.getByTestId('customer-tab-audit').click();
    await page.getByRole('textbox', { name: 'Search by email' }).fill(email);
    const entry = page.locator('[data-testid="audit-row"][data-action="api_token"]').filter({ hasText: email });
    await entry.waitFor();
    const cells = await entry.locator('td').allInnerTexts();
    assert.equal(cells[1], signedInAdmin(), 'the administrator who did it');
    assert.deepEqual(cells.slice(2, 4), [email, 'API token issued']);
    assert.match(cells[5], /^[0-9a-f.:]+$/, 'the address it came from');
    await still(page);
    await shot(page, 'users-audit-1440.png');
    noErrors(page);
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
    // The number is added on /manage-number with its vendor picked by name.
    const number = `+44207947${String(stamp % 10000).padStart(4, '0')}`;
    await page.goto(`${BASE}/manage-number`);
    await page.getByTestId('number-add').click();
    await page.getByTestId('number-number').fill(number);
    await page.getByTestId('number-monthly_fee').fill('2');
    await pick(page, 'number-vendor', name.slice(0, 10), name);
    await page.getByTestId('number-dialog').getByTestId('number-save').click();
    await page.getByTestId('number-notice').filter({ hasText: `Number ${number} added to the pool.` }).waitFor();
    const added = (await api('admin', 'GET', `/number/details?params=${encodeURIComponent(number)}`)).data.data[0];
    assert.equal(added.vendor_id, vendor.id);
    await page.getByTestId('number-vendors').click();
    await page.waitForURL(/\/vendor$/);
    await page.getByRole('textbox', { name: 'Search vendors' }).fill(name);
    const trunk = `e2e-in-${stamp}`;
    assert.equal((await api('admin', 'POST', '/trunk/add', { name: trunk, direction: 'inbound', host: '127.0.0.1', vendor_id: vendor.id })).status, 201);
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
    await page.getByTestId('vendor-notice').filter({ hasText: `Vendor ${name} is now inactive.` }).waitFor();
    assert.equal((await findVendor(name)).status, 'inactive');

    // One that supplies nothing goes.
    const spare = (await api('admin', 'POST', '/vendor/add', { name: `E2E Spare ${stamp}` })).data;
    await page.getByRole('textbox', { name: 'Search vendors' }).fill(spare.name);
    await page.locator(`[data-testid="vendor-row"][data-name="${spare.name}"]`).getByTestId('vendor-delete').click();
    await page.getByTestId('confirm-button').click();
    await page.getByTestId('vendor-notice').filter({ hasText: `Vendor ${spare.name} deleted.` }).waitFor();
    assert.equal(await findVendor(spare.name), undefined, 'gone');
    await still(page);
    await shot(page, 'vendors-1440.png');
    noErrors(page);
    await page.context().close();
  });

  test('admin: /uploadnumber — sample file, the row cap, a CSV imported with its per-line report, past uploads', async () => {
    const page = await newPage(1440);
    await signIn(page, 'admin', '/manage-number');
    await page.getByTestId('number-upload').click();
    await page.waitForURL(/\/uploadnumber$/);
    assert.equal(await page.getByTestId('upload-cap').innerText(), '100,000 numbers per file');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('upload-sample').click()]);
    const { readFile } = await import('node:fs/promises');
    const sample = await readFile(await download.path(), 'utf8');
    assert.match(sample, /^number,country,vendor,setup_fee,monthly_fee\n\+442079460001,GB,/);

    const file = (name, text) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
    const header = 'number,country,vendor,setup_fee,monthly_fee\n';
    const many = Array.from({ length: 100001 }, (_, i) => `+4420794${String(i).padStart(5, '0')},GB,,0,0`).join('\n');
    await page.getByTestId('upload-file').setInputFiles(file('too-many.csv', header + many));
    await page.getByTestId('upload-error').filter({ hasText: 'The file has 100,001 numbers; a file takes at most 100,000; split it.' }).waitFor();
    assert.equal(await page.getByTestId('upload-submit').isDisabled(), true, 'not sent');

    const stamp = Date.now() % 100000;
    const vendor = (await api('admin', 'POST', '/vendor/add', { name: `E2E Upload Vendor ${stamp}` })).data;
    const digits = String(stamp % 10000).padStart(4, '0');
    const [first, second] = [`+44161496${digits}`, `+1415555${digits}`];
    const filename = `e2e-numbers-${stamp}.csv`;
    const lines = [`${first},GB,${vendor.name},1.25,2`, `${second},US,,,`, `${first},GB,,0,0`, 'not-a-number,GB,,0,0', `+44161497${digits},GB,Nobody Telecom,0,0`];
    await page.getByTestId('upload-file').setInputFiles(file(filename, header + lines.join('\n')));
    await page.getByTestId('upload-chosen').filter({ hasText: `${filename}: 5 number(s)` }).waitFor();
    await page.getByTestId('upload-submit').click();
    await page.getByTestId('upload-summary').filter({ hasText: 'Imported 2 of 5 line(s); 3 skipped.' }).waitFor();
    // The skipped lines, each with its reason; imported lines are only counted.
    const line = (n) => page.locator(`[data-testid="report-line"][data-line="${n}"]`);
    await line(4).getByText('duplicate of line 2').waitFor();
    await line(5).getByText(/invalid E\.164/).waitFor();
    await line(6).getByText("unknown vendor 'Nobody Telecom'").waitFor();
    assert.equal(await line(2).count(), 0, 'imported lines are not listed');
    const past = page.locator(`[data-testid="uploads-row"][data-file="${filename}"]`);
    assert.match(await past.innerText(), /Ada Admin\s+5\s+2\s+3/);
    await still(page);
    await shot(page, 'uploadnumber-1440.png');

    const imported = (await api('admin', 'GET', `/number/details?params=${encodeURIComponent(first)}`)).data.data;
    assert.deepEqual(imported.map((n) => [n.number, n.vendor_id, n.setup_fee, n.monthly_fee, n.user_id]), [[first, vendor.id, '1.2500', '2.0000', null]]);
    const batch = (await api('admin', 'GET', `/number/vcrs?params=${filename}`)).data.data[0];
    assert.deepEqual([batch.total, batch.imported, batch.skipped], [5, 2, 3]);
    noErrors(page);
    await page.context().close();
  });

  test("buyer: /buyer-target lists the buyer's targets with today's calls against each cap, open hours and status", async () => {
    const customer = await newPage(1440);
    await signIn(customer, 'customer', '/target');
    const buyers = (await api('customer', 'GET', '/buyer/details?perpage=100')).data.data;
    const buyerName = 'Bea Buyer';
    const bea = buyers.find((b) => b.name === buyerName);
    assert.ok(bea, `${buyerName} is a buyer of the customer`);
    const stamp = Date.now() % 100000;
    const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
    const otherDay = days[(new Date().getUTCDay() + 3) % 7];
    const open = `E2E Desk ${stamp}`;
    const closed = `E2E Night ${stamp}`;
    for (const body of [
      { name: open, destination: '+14155550100', daily_cap: 3, hourly_cap: null, concurrency_cap: 2, payout: '4.5' },
      { name: closed, destination: '+14155550101', timezone: 'UTC', schedule: { [otherDay]: [['09:00', '17:00']] } }
    ]) {
      const r = await api('customer', 'POST', '/target/add', { buyer_id: bea.id, ...body });
      assert.equal(r.status, 201, r.message);
    }
    await customer.context().close();

    const page = await newPage(1440);
    await signInUi(page, 'buyer'); // afresh: the logout scenario ended the buyer's stored session
    await page.getByTestId('buyer-chip-target').click();
    await page.waitForURL(/\/buyer-target$/);
    const row = (name) => page.locator(`[data-testid="buyer-target-row"][data-name="${name}"]`);
    await row(open).waitFor();
    assert.equal(await row(open).getByTestId('buyer-target-now').innerText(), 'Taking calls');
    assert.equal(await row(open).getByTestId('buyer-target-calls_today').innerText(), '0 / 3');
    assert.equal(await row(open).getByTestId('buyer-target-calls_this_hour').innerText(), '0 (no cap)');
    assert.match(await row(open).innerText(), /\+14155550100[\s\S]*Always open[\s\S]*\b2\b[\s\S]*\$4\.50/);
    assert.equal(await row(closed).getByTestId('buyer-target-now').innerText(), 'Closed now');
    assert.match(await row(closed).getByTestId('buyer-target-hours').innerText(), /09:00-17:00\s+UTC/);
    // Paused by the customer: the buyer sees it after a refresh.
    const own = (await api('buyer', 'GET', '/buyer/target')).data;
    const desk = own.find((t) => t.name === open);
    assert.deepEqual([desk.calls_today, desk.daily_cap, desk.open_now], [0, 3, true]);
    assert.equal((await api('customer', 'PATCH', `/target/status/${desk.id}`, { status: 'inactive' })).status, 200);
    await page.getByRole('button', { name: 'Refresh targets' }).click();
    await row(open).getByTestId('buyer-target-now').filter({ hasText: 'Paused' }).waitFor();
    await still(page);
    await shot(page, 'buyer-target-1440.png');
    noErrors(page);
    await page.context().close();
  });

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
    await page.getByTestId('ivr-notice').filter({ hasText: `IVR settings of ${name} saved.` }).waitFor();
    await page.getByRole('textbox', { name: 'Search campaigns' }).fill(name);
    const row = page.locator(`[data-testid="ivr-row"][data-name="${name}"]`);
    await row.getByTestId('ivr-state').filter({ hasText: 'On' }).waitFor();
    assert.equal(await row.getByTestId('ivr-pin-count').innerText(), '3');
    const stored = (await api('customer', 'GET', `/campaign/ivr/${campaignId}`)).data;
    assert.deepEqual([stored.ivr_enabled, stored.ivr_prompt, stored.ivr_attempts, stored.ivr_digits], [true, 'enter-pin', 2, 4]);
    assert.equal(stored.ivr_pins.length, 3);
    assert.ok(stored.ivr_pins.includes('1234') && stored.ivr_pins.includes('5678'));
    await still(page);
    await shot(page, 'user-ivr-1440.png');
    noErrors(page);
    await page.context().close();

    const admin = await newPage(1440);
    await signIn(admin, 'admin', '/ivr');
    const customerName = ACCOUNT_NAME();
    await pick(admin, 'ivr-customer', customerName.slice(0, 5), customerName);
    await admin.getByRole('combobox', { name: 'IVR' }).click();
    await admin.getByRole('option', { name: 'on' }).click();
    await admin.getByRole('textbox', { name: 'Search campaigns' }).fill(name);
    const adminRow = admin.locator(`[data-testid="ivr-row"][data-name="${name}"]`);
    // Until the row reads so (the list shown before the filters applied may hold it first).
    const shown = `${name}\\s+${customerName}\\s+On\\s+enter-pin\\s+4\\s+3\\s+2`;
    await admin.waitForFunction(
      ([rowName, pattern]) => {
        const el = document.querySelector(`[data-testid="ivr-row"][data-name="${rowName}"]`);
        return Boolean(el) && new RegExp(pattern).test(el.innerText);
      },
      [name, shown]
    );
    await adminRow.getByTestId('ivr-edit').click();
    await ivrLoaded(admin);
    assert.equal(await admin.getByTestId('ivr-ivr_attempts').inputValue(), '2', 'read from the server');
    await admin.getByTestId('ivr-enabled').uncheck();
    await admin.getByTestId('ivr-dialog').getByTestId('ivr-save').click();
    await admin.getByTestId('ivr-notice').filter({ hasText: `IVR settings of ${name} saved.` }).waitFor();
    await adminRow.waitFor({ state: 'detached' }); // the list shows campaigns with IVR on only
    await still(admin);
    await shot(admin, 'ivr-1440.png');
    const after = (await api('admin', 'GET', `/campaign/ivr/${campaignId}`)).data;
    assert.deepEqual([after.ivr_enabled, after.ivr_pins.length], [false, 3], 'off, PINs kept');
    noErrors(admin);
    await admin.context().close();
  });
}
