// Money, checked through the API each time: the admin tops up a customer chosen by name (the same
// reference again is already credited); the customer's wallet (the balance after each payment,
// totals, CSV, the header following a top-up); every customer's wallet for the admin; invoices
// issued, opened and downloaded by the admin and by the customer.
import assert from 'node:assert/strict';
import { cellHas } from '../cells.mjs';
import { downloaded } from '../downloads.mjs';
import { pick } from '../pickers.mjs';
import { still } from '../waits.mjs';
import { noErrors } from '../page-errors.mjs';

// The API's answers, as the generated client types them.
/** @typedef {import('../../src/client/types.gen.ts').InvoiceSummary} InvoiceSummary */

/** @param {import('../run.mjs').Harness} harness */
export default function registerBillingScenarios({ test, newPage, signIn, ACCOUNTS, shot, api, BASE }) {
  const stamp = Date.now() % 100000;
  // A customer of the billing scenarios' own, so the other scenarios' wallets stay as they expect.
  /** @type {{ name: string, email: string, password: string, id?: number }} */
  const PAYER = { name: `E2E Payer ${stamp}`, email: `e2e.payer.${stamp}@example.com`, password: 'payerpass1' };

  ACCOUNTS.payer = PAYER; // signIn(page, 'payer', path) once it exists

  /** Create PAYER through the API once (the admin signed in); its id. */
  async function payerId() {
    if (!PAYER.id) {
      const made = await api('admin', 'POST', '/user/add', {
        name: PAYER.name,
        email: PAYER.email,
        password: PAYER.password
      });
      assert.equal(made.status, 201, made.message);
      PAYER.id = made.data.id;
    }
    return PAYER.id;
  }

  test('admin: top up a customer chosen by name; the same reference again is already credited', async () => {
    const page = await newPage(1440);
    await signIn(page, 'admin');
    const id = await payerId(); // before the screen loads its customer picker
    await page.goto(`${BASE}/topup`);
    await page.getByTestId('topup-send').click();
    await page.getByText('Choose the customer to credit').waitFor();
    await pick(page, 'topup-customer', PAYER.name);
    await page.getByTestId('topup-amount').fill('0');
    await page.getByTestId('topup-send').click();
    await page.getByText('Amount must be more than 0, like 100.00').waitFor();
    // A person types cents: 12.345 would be shown as $12.35 and stored as 12.3450; refused beside the field.
    await page.getByTestId('topup-amount').fill('12.345');
    await page.getByTestId('topup-send').click();
    await page.getByText("At most 2 decimals (cents): 12.345 can't be credited as typed").waitFor();
    await page.getByTestId('topup-amount').fill('75.5');
    const reference = `e2e-${stamp}`;
    await page.getByTestId('topup-reference').fill(reference);
    await page.getByTestId('topup-note').fill('Bank transfer');
    await page.getByTestId('topup-send').click();
    // Money moves after a second look: the dialog repeats the amount and the account.
    const confirmText = page.getByTestId('topup-confirm-text');
    await confirmText.filter({ hasText: `Credit $75.50 to ${PAYER.name} (${PAYER.email}).` }).waitFor();
    await page.getByTestId('confirm-button').click();
    const outcome = page.getByTestId('topup-outcome');
    await outcome.filter({ hasText: `Credited $75.50 to ${PAYER.name}. The balance is now $75.50.` }).waitFor();
    assert.equal(await outcome.getByTestId('topup-balance').innerText(), '$75.50');
    const recent = page.locator(`[data-testid="topups-row"][data-reference="${reference}"]`);
    await cellHas(recent, 'Customer', PAYER.name);
    await cellHas(recent, 'Amount', '$75.50');
    await cellHas(recent, 'Note', 'Bank transfer');

    // The same reference again (a retry): shown as already credited, the balance unchanged.
    await page.getByTestId('topup-amount').fill('75.5');
    await page.getByTestId('topup-reference').fill(reference);
    await page.getByTestId('topup-send').click();
    await page.getByTestId('confirm-button').click();
    await outcome.filter({ hasText: 'Already credited' }).waitFor();
    assert.equal(await outcome.getByTestId('topup-balance').innerText(), '$75.50');
    const balance = await api('admin', 'GET', `/user/balance/${id}`);
    assert.equal(balance.data[0].balance, '75.5000', 'credited once');
    await still(page);
    await shot(page, 'topup-1440.png');
    noErrors(page);
    await page.context().close();
  });

  test('customer: the wallet shows each payment with the balance after it, totals, CSV; the header follows a top-up', async () => {
    const admin = await newPage(1440);
    await signIn(admin, 'admin', '/dashboard');
    const id = await payerId();
    await api('admin', 'POST', '/topup/add', {
      user_id: id,
      amount: '10',
      note: 'Welcome credit',
      reference: `e2e-w-${stamp}`
    });
    await admin.context().close();
    const page = await newPage(1440);
    await signIn(page, 'payer');
    const before = (await api('payer', 'GET', `/user/balance/${id}`)).data[0].balance;
    await page
      .getByTestId('balance-amount')
      .filter({ hasText: `$${Number(before).toFixed(2)}` })
      .waitFor();
    // A customer with no calls yet: the chart says so rather than drawing empty axes.
    assert.equal(await page.getByTestId('stat-calls-value').innerText(), '0');
    await page.getByTestId('dashboard-chart-empty').filter({ hasText: 'No calls in this period.' }).waitFor();
    // Money arrives while the customer is signed in: opening the wallet shows it in the header too.
    await api('admin', 'POST', '/topup/add', {
      user_id: id,
      amount: '20',
      note: 'Second credit',
      reference: `e2e-w2-${stamp}`
    });
    await page.getByTestId('nav-item-wallet').first().click();
    await page.getByTestId('page-title').filter({ hasText: 'Wallet' }).waitFor();
    await page
      .getByTestId('balance-amount')
      .filter({ hasText: `$${(Number(before) + 20).toFixed(2)}` })
      .waitFor();
    const second = page.locator(`[data-testid="wallet-row"][data-reference="e2e-w2-${stamp}"]`);
    await cellHas(second, 'Type', 'Top-up');
    await cellHas(second, 'Amount', '+$20.00');
    await cellHas(second, 'Balance after', `$${(Number(before) + 20).toFixed(2)}`);
    assert.equal(
      await page.locator('[data-testid="wallet-table"] thead th', { hasText: 'Customer' }).count(),
      0,
      'a customer sees only its own'
    );
    await page
      .getByTestId('wallet-credits')
      .filter({ hasText: `$${(Number(before) + 20).toFixed(2)}` })
      .waitFor();

    await page.getByTestId('wallet-description').fill('Second');
    await page.getByTestId('wallet-search').click();
    await page.getByTestId('wallet-net').filter({ hasText: '$20.00' }).waitFor();
    assert.equal(await page.getByTestId('wallet-row').count(), 1);
    const csv = await downloaded(page, page.getByTestId('wallet-export'));
    // The dates' zone is the column's name (the browser context's user is in UTC): still a plain CSV.
    assert.match(
      csv.data,
      /^date \(UTC\),type,description,reference,amount,balance_after\r\n\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},/
    );
    assert.ok(csv.data.includes(`,topup,Second credit,e2e-w2-${stamp},20.0000,`), csv.data);
    await still(page);
    await shot(page, 'wallet-customer-1440.png');
    await page.getByTestId('wallet-tab-numbers').click();
    await page.getByTestId('numberpay-table').getByText('No payments in this period.').waitFor();
    // Money moved elsewhere, nothing done on this page: the live feed pushes the new balance (a call
    // rated after it ends takes the same path).
    await api('admin', 'POST', '/topup/add', {
      user_id: id,
      amount: '5',
      note: 'Third credit',
      reference: `e2e-w3-${stamp}`
    });
    await page
      .getByTestId('balance-amount')
      .filter({ hasText: `$${(Number(before) + 25).toFixed(2)}` })
      .waitFor({ timeout: 25000 });
    noErrors(page);
    await page.context().close();
  });

  test('admin: the wallet of every customer, filtered by customer and type, and the number payments tab', async () => {
    const page = await newPage(1440);
    await signIn(page, 'admin');
    const id = await payerId();
    await page.goto(`${BASE}/wallet`);
    await api('admin', 'POST', '/topup/add', {
      user_id: id,
      amount: '5',
      note: 'Admin view credit',
      reference: `e2e-a-${stamp}`
    });
    await pick(page, 'wallet-user_id', PAYER.name);
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Top-up' }).click();
    await page.getByTestId('wallet-search').click();
    const row = page.locator(`[data-testid="wallet-row"][data-reference="e2e-a-${stamp}"]`);
    await cellHas(row, 'Customer', PAYER.name);
    await cellHas(row, 'Description', 'Admin view credit');
    const listed = (await api('admin', 'GET', `/user/wall?user_id=${id}&transaction_type=topup&perpage=100`)).data
      .total;
    assert.equal(await page.getByTestId('wallet-row').count(), listed, 'the rows the API has for that filter');
    await still(page);
    await shot(page, 'wallet-admin-1440.png');
    await page.getByTestId('wallet-tab-numbers').click();
    await page.getByTestId('numberpay-table').waitFor();
    await page.getByRole('combobox', { name: 'Fee' }).click();
    await page.getByRole('option', { name: 'Setup fee' }).click();
    await page.getByTestId('numberpay-search').click();
    const setups = (await api('admin', 'GET', '/number/ct?payment_type=setup&perpage=100')).data.total;
    if (setups === 0) await page.getByTestId('numberpay-table').getByText('No payments in this period.').waitFor();
    else await page.locator('[data-testid="numberpay-row"]').first().waitFor();
    noErrors(page);
    await page.context().close();
  });

  test('admin: invoice a finished month for a customer, open it and download its PDF', async () => {
    const page = await newPage(1440);
    await signIn(page, 'admin');
    const id = await payerId();
    await page.goto(`${BASE}/invoice`);
    await page.getByTestId('invoice-generate').click();
    const generate = page.getByTestId('invoice-generate-dialog');
    await generate.getByTestId('invoice-generate-go').click();
    await generate.getByText('Choose the customer to invoice').waitFor();
    await pick(page, 'invoice-customer', PAYER.name);
    await generate.getByTestId('invoice-generate-go').click();
    await page
      .getByTestId('invoice-notice')
      .filter({ hasText: /Invoice .* issued\.|already issued/ })
      .waitFor();
    /** @type {InvoiceSummary[]} */
    const made = (await api('admin', 'GET', `/invoice/details?user_id=${id}`)).data.data;
    assert.equal(made.length, 1, 'the API has the invoice');
    const [invoice] = made;
    assert.ok(invoice);
    const row = page.locator(`[data-testid="invoice-row"][data-number="${invoice.number}"]`);
    await cellHas(row, 'Customer', PAYER.name);
    await cellHas(row, 'Total', '$0.00');
    await row.getByTestId('invoice-open').click();
    const detail = page.getByTestId('invoice-detail');
    await detail
      .getByTestId('invoice-period')
      .filter({ hasText: `${invoice.period_start} to ${invoice.period_end}` })
      .waitFor();
    await still(page);
    await shot(page, 'invoice-detail-1440.png');
    const pdf = await downloaded(page, detail.getByTestId('invoice-detail-pdf'), { binary: true });
    assert.equal(pdf.name, `${invoice.number}.pdf`);
    assert.equal(pdf.data.subarray(0, 5).toString(), '%PDF-');
    noErrors(page);
    await page.context().close();
  });

  test('customer: its invoices, one opened, its PDF downloaded', async () => {
    const admin = await newPage(1440);
    await signIn(admin, 'admin', '/dashboard');
    const id = await payerId();
    const month = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1))
      .toISOString()
      .slice(0, 7);
    const made = await api('admin', 'POST', '/invoice/generate', { user_id: id, month });
    assert.ok([200, 201].includes(made.status), made.message);
    await admin.context().close();
    const page = await newPage(1440);
    await signIn(page, 'payer', '/invoice');
    const number = made.data.number;
    const row = page.locator(`[data-testid="invoice-row"][data-number="${number}"]`);
    await cellHas(row, 'Status', 'issued');
    assert.equal(await page.locator('[data-testid="invoice-table"] thead th', { hasText: 'Customer' }).count(), 0);
    assert.equal(await page.getByTestId('invoice-generate').count(), 0, 'a customer has no "Invoice a month"');
    const pdf = await downloaded(page, row.getByTestId('invoice-pdf'), { binary: true });
    assert.equal(pdf.data.subarray(0, 5).toString(), '%PDF-');
    await row.getByTestId('invoice-open').click();
    await page
      .getByTestId('invoice-detail')
      .getByTestId('invoice-total-charges')
      .filter({ hasText: '$0.00' })
      .waitFor();
    await still(page);
    await shot(page, 'invoice-customer-1440.png');
    noErrors(page);
    await page.context().close();
  });
}
