// The users screen (/customer): impersonating the customer, then Back To Admin; a customer added on
// a tariff, edited, given an API token, refused delete and promotion once it has a payment,
// deactivated; an administrator added and removed, a fresh customer promoted; the Audit tab. Each
// main action is checked through the API afterwards.
import assert from 'node:assert/strict';
import { ADMIN_GROUPS, USER_GROUPS, navTitles } from '../nav.mjs';
import { dialogsOf, noErrors } from '../page-errors.mjs';
import { pickExact } from '../pickers.mjs';
import { still } from '../waits.mjs';

// The API's answers, as the generated client types them.
/** @typedef {import('../../src/client/types.gen.ts').TariffOut} TariffOut */
/** @typedef {import('../../src/client/types.gen.ts').UserOut} UserOut */

/** @param {import('../run.mjs').Harness} harness */
export default function registerUserScenarios({
  test,
  newPage,
  signIn,
  sessions,
  ACCOUNTS,
  nameOfCustomer,
  shot,
  api,
  BASE
}) {
  /**
   * The first user whose name, email or company matches `text`, as the API lists it.
   * @param {string} text
   * @returns {Promise<UserOut | undefined>}
   */
  const findUser = async (text) =>
    (await api('admin', 'GET', `/user/details?params=${encodeURIComponent(text)}`)).data.data[0];
  /**
   * The user `text` finds, which the scenario has just made or changed.
   * @param {string} text
   */
  const storedUser = async (text) => {
    const user = await findUser(text);
    assert.ok(user, `the API lists ${text}`);
    return user;
  };

  test('impersonate the customer from /customer and go Back To Admin', async () => {
    const page = await newPage(1440);
    await signIn(page, 'admin', '/customer');
    const name = nameOfCustomer();
    assert.ok(name, 'CUSTOMER_NAME is needed');
    await page.getByRole('textbox', { name: 'Search users' }).fill(name);
    const row = page.locator(`[data-testid="customer-row"][data-name="${name.replace(/"/g, '\\"')}"]`).first();
    await row.waitFor();
    await row.getByTestId('impersonate-button').click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('back-to-admin').waitFor();
    const stored = await page.evaluate(() => ({
      impersonator: localStorage.getItem('impersonator_id'),
      originalUser: localStorage.getItem('original_user'),
      originalToken: localStorage.getItem('original_token'),
      user: JSON.parse(localStorage.getItem('user') ?? 'null')
    }));
    assert.ok(stored.impersonator && stored.originalUser && stored.originalToken, 'impersonation keys saved');
    assert.equal(stored.user.name, name);
    assert.deepEqual(await navTitles(page), USER_GROUPS, 'user menu while impersonating');
    await page.getByTestId('header-balance').waitFor();
    await page.getByTestId('page-title').waitFor();
    await still(page);
    await shot(page, 'impersonating-1440.png');
    await page.getByTestId('back-to-admin').click();
    await page.waitForURL(/\/dashboard$/);
    await page.waitForFunction(() => !localStorage.getItem('impersonator_id'));
    await page.getByTestId('page-title').waitFor();
    assert.equal(await page.getByTestId('back-to-admin').count(), 0);
    const after = await page.evaluate(() => ({
      keys: ['impersonator_id', 'original_user', 'original_token'].map((k) => localStorage.getItem(k)),
      user: JSON.parse(localStorage.getItem('user') ?? 'null'),
      token: localStorage.getItem('token')
    }));
    assert.deepEqual(after.keys, [null, null, null]);
    assert.equal(Number(after.user.role), 1);
    assert.equal(after.token, sessions.admin?.token, 'admin token restored');
    assert.deepEqual(await navTitles(page), ADMIN_GROUPS, 'admin menu again');
    assert.deepEqual(dialogsOf(page), [], 'no alert');
    await page.context().close();
  });

  test('admin: users on /customer — add a customer on a tariff, edit, token, deactivate; refusals shown; an administrator added and removed', async () => {
    const page = await newPage(1440);
    await signIn(page, 'admin', '/customer');
    const stamp = Date.now() % 100000;
    /** @type {TariffOut} */
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
    await pickExact(page, 'user-tariff', 'E2E Retail', `${tariff.name} (USD)`);
    await pickExact(page, 'user-timezone', 'Tokyo', 'Asia/Tokyo');
    await dialog.getByTestId('user-save').click();
    await page
      .getByTestId('customer-notice')
      .filter({ hasText: `User ${name} created.` })
      .waitFor();
    await page.getByRole('textbox', { name: 'Search users' }).fill(email);
    const row = page.locator(`[data-testid="customer-row"][data-name="${name}"]`);
    await row.getByTestId('customer-tariff').filter({ hasText: tariff.name }).waitFor();
    assert.equal(await row.getByTestId('customer-balance').innerText(), '$0.00');
    let stored = await storedUser(email);
    assert.deepEqual(
      [stored.role, stored.tariff_id, stored.timezone, stored.status],
      [2, tariff.id, 'Asia/Tokyo', 'active']
    );

    await row.getByTestId('customer-edit').click();
    assert.equal(
      await page.getByTestId('user-tariff').inputValue(),
      `${tariff.name} (USD)`,
      'the tariff shows by name'
    );
    await pickExact(page, 'user-timezone', 'Chicago', 'America/Chicago');
    await dialog.getByTestId('user-save').click();
    await page
      .getByTestId('customer-notice')
      .filter({ hasText: `User ${name} saved.` })
      .waitFor();
    await row.getByText('America/Chicago').waitFor();
    assert.equal((await storedUser(email)).timezone, 'America/Chicago');
    await still(page);
    await shot(page, 'users-1440.png');

    // A new API token, shown once; it signs API calls in as that user.
    await row.getByTestId('customer-token').click();
    await page.getByTestId('token-issue').click();
    const token = await page.getByTestId('token-value').inputValue();
    const profile = await (
      await fetch(`${BASE}/api/profile`, { headers: { Authorization: `Bearer ${token}` } })
    ).json();
    assert.equal(profile.data.name, name, "the token is the user's");
    await page.getByTestId('token-dialog').getByRole('button', { name: 'Close' }).click();

    // With a payment in its wallet the server keeps it, and the screen says why.
    assert.equal(
      (await api('admin', 'POST', '/topup/add', { user_id: stored.id, amount: '12.5', note: 'e2e' })).status,
      201
    );
    await page.reload();
    await page.getByRole('textbox', { name: 'Search users' }).fill(email);
    assert.equal(await row.getByTestId('customer-balance').innerText(), '$12.50');
    await row.getByTestId('customer-delete').click();
    await page.getByTestId('confirm-button').click();
    await page.getByTestId('customer-error').filter({ hasText: 'deactivate it instead' }).waitFor();
    await row.getByTestId('customer-promote').click();
    await page.getByTestId('confirm-button').click();
    await page.getByTestId('customer-error').filter({ hasText: 'create a separate administrator account' }).waitFor();
    stored = await storedUser(email);
    assert.deepEqual([stored.role, stored.status], [2, 'active'], 'neither deleted nor promoted');

    await row.getByTestId('customer-status').click();
    await page
      .getByTestId('customer-notice')
      .filter({ hasText: `User ${name} is now inactive.` })
      .waitFor();
    assert.equal((await storedUser(email)).status, 'inactive');

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
    await page
      .getByTestId('customer-notice')
      .filter({ hasText: `User ${adminName} created.` })
      .waitFor();
    assert.equal((await storedUser(adminEmail)).role, 1);
    await page.getByRole('textbox', { name: 'Search users' }).fill(adminEmail);
    const adminRow = page.locator(`[data-testid="customer-row"][data-name="${adminName}"]`);
    await adminRow.waitFor();
    assert.equal(await adminRow.getByTestId('impersonate-button').count(), 0);
    assert.equal(await adminRow.getByTestId('customer-promote').count(), 0);
    await adminRow.getByTestId('customer-delete').click();
    await page.getByTestId('confirm-button').click();
    await page
      .getByTestId('customer-notice')
      .filter({ hasText: `User ${adminName} deleted.` })
      .waitFor();
    assert.equal(await findUser(adminEmail), undefined, 'gone');

    // A customer with nothing yet can become an administrator.
    /** @type {UserOut} */
    const fresh = (
      await api('admin', 'POST', '/user/add', {
        name: `E2E Fresh ${stamp}`,
        email: `e2e.fresh.${stamp}@example.com`,
        password: 'freshpass1'
      })
    ).data;
    await page.getByRole('textbox', { name: 'Search users' }).fill(fresh.email);
    await page
      .locator(`[data-testid="customer-row"][data-name="${fresh.name}"]`)
      .getByTestId('customer-promote')
      .click();
    await page.getByTestId('confirm-button').click();
    await page
      .getByTestId('customer-notice')
      .filter({ hasText: `${fresh.name} is now an administrator.` })
      .waitFor();
    assert.equal((await storedUser(fresh.email)).role, 1);
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
    assert.equal(cells[1], ACCOUNTS.admin.email, 'the administrator who did it');
    assert.deepEqual(cells.slice(2, 4), [email, 'API token issued']);
    assert.match(cells[5] ?? '', /^[0-9a-f.:]+$/, 'the address it came from');
    await still(page);
    await shot(page, 'users-audit-1440.png');
    noErrors(page);
  });
}
