// Buyers: one added by the customer on /buyer signs in with its own email and, once inactive,
// cannot; the buyer's /buyer-target shows today's calls against each cap, open hours and status.
import assert from 'node:assert/strict';
import { cellHas } from '../cells.mjs';
import { noErrors } from '../page-errors.mjs';
import { still } from '../waits.mjs';

// The API's answers, as the generated client types them.
/** @typedef {import('../../src/client/types.gen.ts').BuyerOut} BuyerOut */
/** @typedef {import('../../src/client/types.gen.ts').BuyerTarget} BuyerTarget */

/** @param {import('../run.mjs').Harness} harness */
export default function registerBuyerScenarios({ test, newPage, signIn, signInUi, shot, api, BASE, ACCOUNTS }) {
  test('customer: a buyer added on /buyer signs in with its own email; inactive, it cannot', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/buyer');
    const stamp = Date.now() % 100000;
    const [name, email] = [`E2E Buyer ${stamp}`, `e2e.buyer.${stamp}@example.com`];
    await page.getByTestId('buyer-add').click();
    const dialog = page.getByTestId('buyer-dialog');
    await page.getByTestId('buyer-name').fill(name);
    // A taken address is not told apart from a new one (docs/security.md): only the form's own rules show.
    await page.getByTestId('buyer-email').fill(email);
    await page.getByTestId('buyer-password').fill('short');
    await dialog.getByTestId('buyer-save').click();
    await dialog.getByText('Password must be at least 8 characters').waitFor();
    await page.getByTestId('buyer-password').fill('buyerpass1');
    await dialog.getByTestId('buyer-save').click();
    await page
      .getByTestId('buyer-notice')
      .filter({ hasText: `Buyer ${name} created.` })
      .waitFor();
    const row = page.locator(`[data-testid="buyer-row"][data-name="${name}"]`);
    await cellHas(row, 'Sign-in email', email);

    const signInAs = async () => {
      const buyer = await newPage(1440);
      await buyer.goto(`${BASE}/login`);
      await buyer.locator('#email').fill(email);
      await buyer.locator('#password').fill('buyerpass1');
      await buyer.getByTestId('login-submit').click();
      return buyer;
    };
    const buyer = await signInAs();
    await buyer.waitForURL(/\/dashboard$/);
    assert.equal(
      JSON.parse((await buyer.evaluate(() => localStorage.getItem('user'))) ?? 'null').role,
      3,
      'signed in as a buyer'
    );
    await buyer.context().close();

    await row.getByTestId('buyer-status').click();
    await page
      .getByTestId('buyer-notice')
      .filter({ hasText: `Buyer ${name} is now inactive.` })
      .waitFor();
    const refused = await signInAs();
    await refused.getByRole('alert').waitFor();
    assert.match(refused.url(), /\/login$/);
    await refused.context().close();

    await row.getByTestId('buyer-delete').click();
    await page.getByTestId('confirm-button').click();
    await page
      .getByTestId('buyer-notice')
      .filter({ hasText: `Buyer ${name} deleted.` })
      .waitFor();
    await row.waitFor({ state: 'detached' });
    noErrors(page);
    await page.context().close();
  });

  test('customer: a buyer whose address has an account says it has no sign-in yet; a password on its form makes one', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/buyer');
    const stamp = Date.now() % 100000;
    const name = `E2E Known ${stamp}`;
    await page.getByTestId('buyer-add').click();
    const dialog = page.getByTestId('buyer-dialog');
    await page.getByTestId('buyer-name').fill(name);
    // The buyer account the runner signs in as: an address that has an account already.
    await page.getByTestId('buyer-email').fill(ACCOUNTS.buyer.email);
    await page.getByTestId('buyer-password').fill('buyerpass1');
    await dialog.getByTestId('buyer-save').click();
    const row = page.locator(`[data-testid="buyer-row"][data-name="${name}"]`);
    // The truth about this buyer, on its row: it can't sign in (nothing says whose the address is).
    assert.equal(await row.getByTestId('buyer-sign-in').innerText(), 'No sign-in yet');
    await row.getByTestId('buyer-invite').waitFor();
    await row.getByTestId('buyer-edit').click();
    await dialog.getByTestId('buyer-sign-in-state').filter({ hasText: 'No sign-in yet' }).waitFor();
    const email = `e2e.desk.${stamp}@example.com`;
    await page.getByTestId('buyer-email').fill(email);
    await page.getByTestId('buyer-password').fill('deskpass12');
    await dialog.getByTestId('buyer-save').click();
    await row.getByTestId('buyer-sign-in').filter({ hasText: 'Can sign in' }).waitFor();
    assert.equal(await row.getByTestId('buyer-invite').count(), 0);
    const desk = await newPage(1440);
    await desk.goto(`${BASE}/login`);
    await desk.locator('#email').fill(email);
    await desk.locator('#password').fill('deskpass12');
    await desk.getByTestId('login-submit').click();
    await desk.waitForURL(/\/dashboard$/);
    await desk.context().close();
    await shot(page, 'buyer-sign-in-1440.png');
    noErrors(page);
    await page.context().close();
  });

  test("buyer: /buyer-target lists the buyer's targets with today's calls against each cap, open hours and status", async () => {
    const customer = await newPage(1440);
    await signIn(customer, 'customer', '/target');
    /** @type {BuyerOut[]} */
    const buyers = (await api('customer', 'GET', '/buyer/details?perpage=100')).data.data;
    const buyerName = 'Bea Buyer';
    const bea = buyers.find((b) => b.name === buyerName);
    assert.ok(bea, `${buyerName} is a buyer of the customer`);
    const stamp = Date.now() % 100000;
    const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
    const otherDay = days[(new Date().getUTCDay() + 3) % 7];
    assert.ok(otherDay);
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
    /** @param {string} name */
    const row = (name) => page.locator(`[data-testid="buyer-target-row"][data-name="${name}"]`);
    await row(open).waitFor();
    assert.equal(await row(open).getByTestId('buyer-target-now').innerText(), 'Taking calls');
    assert.equal(await row(open).getByTestId('buyer-target-calls_today').innerText(), '0 / 3');
    assert.equal(await row(open).getByTestId('buyer-target-calls_this_hour').innerText(), '0 (no cap)');
    assert.match(await row(open).innerText(), /\+14155550100[\s\S]*Always open[\s\S]*\b2\b[\s\S]*\$4\.50/);
    assert.equal(await row(closed).getByTestId('buyer-target-now').innerText(), 'Closed now');
    assert.match(await row(closed).getByTestId('buyer-target-hours').innerText(), /09:00-17:00\s+UTC/);
    // Paused by the customer: the buyer sees it after a refresh.
    /** @type {BuyerTarget[]} */
    const own = (await api('buyer', 'GET', '/buyer/target')).data;
    const desk = own.find((t) => t.name === open);
    assert.ok(desk, `${open} is among the buyer's targets`);
    assert.deepEqual([desk.calls_today, desk.daily_cap, desk.open_now], [0, 3, true]);
    assert.equal((await api('customer', 'PATCH', `/target/status/${desk.id}`, { status: 'inactive' })).status, 200);
    await page.getByRole('button', { name: 'Refresh targets' }).click();
    await row(open).getByTestId('buyer-target-now').filter({ hasText: 'Paused' }).waitFor();
    // The buyer resumes it, and pauses it again, itself.
    await row(open).getByTestId('buyer-target-pause').filter({ hasText: 'Resume' }).click();
    await row(open).getByTestId('buyer-target-now').filter({ hasText: 'Taking calls' }).waitFor();
    await row(open).getByTestId('buyer-target-pause').filter({ hasText: 'Pause' }).click();
    await row(open).getByTestId('buyer-target-now').filter({ hasText: 'Paused' }).waitFor();
    /** @type {BuyerTarget[]} */
    const after = (await api('buyer', 'GET', '/buyer/target')).data;
    assert.equal(after.find((t) => t.name === open)?.status, 'inactive', 'paused by the buyer');
    await still(page);
    await shot(page, 'buyer-target-1440.png');
    noErrors(page);
    await page.context().close();
  });
}
