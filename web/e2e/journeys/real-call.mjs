// The platform set up in the browser alone, then a real call through it (issue 23's proof).
//
// tests/asterisk/test_browser_real_call.py runs it against the real API, bridge, Asterisk and a
// Celery worker, with E2E_CALL_TARGET_PORT (a sipp target answering on 127.0.0.1) and
// E2E_CALL_CALLER (the number sipp calls from). The admin imports a rate card, makes a tariff, a
// vendor, a trunk to the sipp target, uploads a number, makes a customer on the tariff and tops it
// up; the customer takes the number, makes a buyer, a target on the trunk and a campaign with an
// IVR PIN, and points the number at it. Then the scenario prints one line,
//   CALL {"did": ..., "pin": ..., "trunk": ...}
// on which the Python side places the call (keying the PIN); the browser waits for what the call
// does on each screen: Live Calls while it talks (the customer hangs it up there), then Report,
// Wallet, the header balance, the Dashboard, the buyer's report, and an invoice PDF.
import assert from 'node:assert/strict';
import { cell, cellHas } from '../cells.mjs';
import { downloaded } from '../downloads.mjs';
import { pick } from '../pickers.mjs';
import { clickAndAnswer, ivrLoaded, refreshUntil, still, textChanges } from '../waits.mjs';
import { noErrors } from '../page-errors.mjs';

const PER_MINUTE = 6; // $0.10 a second, billed by the second
const CONNECT_FEE = 0.05;
const TOP_UP = 20;
const SETUP_FEE = 1;
/** @param {number} n dollars */
const money = (n) => `$${n.toFixed(2)}`;
/** A rate per minute or a call's cost: the 4 places every row of those columns shows. @param {number} n */
const rate = (n) => `$${n.toFixed(4)}`;
/**
 * Open a screen from the sidebar, as a user does (no page load), until the sidebar marks it the
 * current page: a click landing while a closing dialog still covers the page is lost, and a user
 * would click again.
 * @param {import('playwright-core').Page} page
 * @param {string} item the sidebar item's test id after `nav-item-`
 */
const open = (page, item) =>
  refreshUntil(
    page.locator(`[data-testid="nav-item-${item}"][aria-current="page"]`).first(),
    () => page.getByTestId(`nav-item-${item}`).first().click(),
    { every: 3000 }
  );
/**
 * Start `work` now and await it later; a failure meanwhile is kept for that await.
 * @template T
 * @param {() => Promise<T>} work
 */
const meanwhile = (work) => {
  const running = work();
  running.catch(() => {}); // not unhandled while the scenario does other things
  return running;
};

/** @param {import('../run.mjs').Harness} harness */
export default function registerRealCall({ test, newPage, signInUi, ACCOUNTS, shot }) {
  const port = process.env.E2E_CALL_TARGET_PORT;
  const caller = process.env.E2E_CALL_CALLER;
  if (!port || !caller) return;

  test(
    'a real call through a platform set up in the browser alone: live, report, wallet, dashboard, buyer, invoice',
    async () => {
      const started = Date.now();
      /** @param {string} name */
      const phase = (name) => console.log(`     ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s ${name}`);
      const stamp = Date.now() % 100000;
      const digits = String(stamp % 10000).padStart(4, '0');
      const names = {
        tariff: `Retail ${stamp}`,
        vendor: `Carrier ${stamp}`,
        trunk: `sipp-${stamp}`,
        customer: `Callco ${stamp}`,
        buyer: `Buyer ${stamp}`,
        target: `Desk ${stamp}`,
        campaign: `Leads ${stamp}`
      };
      const did = `+44207183${digits}`;
      const destination = `+1415555${digits}`;
      const pin = '2468';
      ACCOUNTS.caller = { email: `callco.${stamp}@example.com`, password: 'callco-pass1' };
      ACCOUNTS.callBuyer = { email: `desk.${stamp}@example.com`, password: 'desk-pass1' };

      // ---- the admin: prices, supply, the customer and its money
      const admin = await newPage(1440);
      await signInUi(admin, 'admin');
      await open(admin, 'tariff');
      await admin.getByTestId('tariff-add').click();
      await admin.getByTestId('tariff-name').fill(names.tariff);
      await admin.getByTestId('tariff-currency').fill('USD');
      await admin.getByTestId('tariff-dialog').getByTestId('tariff-save').click();
      await admin
        .getByTestId('tariff-notice')
        .filter({ hasText: `Tariff ${names.tariff} created.` })
        .waitFor();
      await admin.getByRole('textbox', { name: 'Search tariffs' }).fill(names.tariff);
      await admin.locator(`[data-testid="tariff-row"][data-name="${names.tariff}"]`).getByTestId('tariff-open').click();
      await admin.getByTestId('rate-import').click();
      const card = `prefix,rate,connection_fee,initial_increment,billing_increment\n1415,${PER_MINUTE},${CONNECT_FEE},1,1\n44,0.02,0,60,60\n`;
      await admin
        .getByTestId('import-file')
        .setInputFiles({ name: 'card.csv', mimeType: 'text/csv', buffer: Buffer.from(card) });
      const importer = admin.getByTestId('import-dialog');
      await importer.getByTestId('import-upload').click();
      await importer.getByTestId('import-result').filter({ hasText: '2 rates imported.' }).waitFor();
      await importer.getByRole('button', { name: 'Close' }).click();
      await cellHas(admin.locator('[data-testid="rate-row"][data-prefix="1415"]'), 'Per minute', rate(PER_MINUTE));

      await open(admin, 'manage-number');
      await admin.getByTestId('number-vendors').click();
      await admin.getByTestId('vendor-add').click();
      await admin.getByTestId('vendor-name').fill(names.vendor);
      await admin.getByTestId('vendor-dialog').getByTestId('vendor-save').click();
      await admin
        .getByTestId('vendor-notice')
        .filter({ hasText: `Vendor ${names.vendor} created.` })
        .waitFor();

      await open(admin, 'manage-trunk');
      await admin.getByTestId('trunk-add').click();
      await admin.getByTestId('trunk-name').fill(names.trunk);
      await admin.getByTestId('trunk-host').fill('127.0.0.1');
      await admin.getByTestId('trunk-port').fill(port);
      await pick(admin, 'trunk-vendor', names.vendor);
      await admin.getByTestId('trunk-dialog').getByTestId('trunk-save').click();
      await admin
        .getByTestId('trunk-notice')
        .filter({ hasText: `Trunk ${names.trunk} created.` })
        .waitFor();

      await open(admin, 'manage-number');
      await admin.getByTestId('number-upload').click();
      const numbers = `number,country,vendor,setup_fee,monthly_fee\n${did},GB,${names.vendor},${SETUP_FEE},0\n`;
      await admin
        .getByTestId('upload-file')
        .setInputFiles({ name: `numbers-${stamp}.csv`, mimeType: 'text/csv', buffer: Buffer.from(numbers) });
      await admin.getByTestId('upload-submit').click();
      await admin.getByTestId('upload-summary').filter({ hasText: 'Imported 1 of 1 line(s)' }).waitFor();

      await open(admin, 'customer');
      await admin.getByTestId('user-add').click();
      await admin.getByTestId('user-name').fill(names.customer);
      await admin.getByTestId('user-email').fill(ACCOUNTS.caller.email);
      await admin.getByTestId('user-password').fill(ACCOUNTS.caller.password);
      await pick(admin, 'user-tariff', names.tariff);
      await admin.getByTestId('user-dialog').getByTestId('user-save').click();
      await admin
        .getByTestId('customer-notice')
        .filter({ hasText: `User ${names.customer} created.` })
        .waitFor();

      await open(admin, 'topup');
      await pick(admin, 'topup-customer', names.customer);
      await admin.getByTestId('topup-amount').fill(String(TOP_UP));
      await admin.getByTestId('topup-reference').fill(`bank-${stamp}`);
      await admin.getByTestId('topup-send').click();
      await admin.getByTestId('confirm-button').click();
      await admin
        .getByTestId('topup-balance')
        .filter({ hasText: money(TOP_UP) })
        .waitFor();

      phase('admin done');
      // ---- the customer: a number, a buyer, a target on the trunk, a campaign behind an IVR PIN
      const page = await newPage(1440);
      await signInUi(page, 'caller');
      await open(page, 'buyer');
      await page.getByTestId('buyer-add').click();
      await page.getByTestId('buyer-name').fill(names.buyer);
      await page.getByTestId('buyer-email').fill(ACCOUNTS.callBuyer.email);
      await page.getByTestId('buyer-password').fill(ACCOUNTS.callBuyer.password);
      await page.getByTestId('buyer-dialog').getByTestId('buyer-save').click();
      await page
        .getByTestId('buyer-notice')
        .filter({ hasText: `Buyer ${names.buyer} created.` })
        .waitFor();

      await open(page, 'target');
      await page.getByTestId('target-add').click();
      const targetDialog = page.getByTestId('target-dialog');
      await page.getByTestId('target-name').fill(names.target);
      await targetDialog.getByRole('combobox', { name: 'Buyer' }).click();
      await page.getByRole('option', { name: names.buyer }).click();
      await page.getByTestId('target-destination').fill(destination);
      await targetDialog.getByRole('combobox', { name: 'Outbound trunk' }).click();
      await page.getByRole('option', { name: names.trunk }).click();
      await targetDialog.getByTestId('target-save').click();
      await page
        .getByTestId('target-notice')
        .filter({ hasText: `Target ${names.target} created.` })
        .waitFor();

      await open(page, 'campaign');
      await page.getByTestId('campaign-add').click();
      await page.getByTestId('campaign-name').fill(names.campaign);
      await page.getByTestId('campaign-dialog').getByTestId('campaign-save').click();
      await page
        .getByTestId('campaign-notice')
        .filter({ hasText: `Campaign ${names.campaign} created.` })
        .waitFor();
      const campaignRow = page.locator(`[data-testid="campaign-row"][data-name="${names.campaign}"]`);
      await campaignRow.getByTestId('campaign-open').click();
      await page.getByTestId('campaign-tab-targets').click();
      const links = page.getByTestId('campaign-panel-targets');
      await links.getByRole('combobox', { name: 'Assign a target' }).click();
      await page.getByRole('option', { name: `${names.target} (${destination})` }).click();
      await links.getByTestId('links-add').click();
      await links
        .getByTestId('links-notice')
        .filter({ hasText: `${names.target} now takes this campaign's calls.` })
        .waitFor();
      await page.getByTestId('campaign-tab-ivr').click();
      const ivr = page.getByTestId('campaign-panel-ivr');
      await ivrLoaded(page);
      await page.getByTestId('ivr-enabled').check();
      await page.getByTestId('ivr-pins').fill(pin);
      await ivr.getByTestId('ivr-save').click();
      await ivr
        .getByTestId('ivr-form-notice')
        .filter({ hasText: `IVR settings of ${names.campaign} saved.` })
        .waitFor();

      await open(page, 'number');
      await page.getByTestId('number-take').click();
      const pool = page.getByTestId('pool-dialog');
      await pool.getByRole('textbox', { name: 'Search the pool' }).fill(did);
      await pool.locator(`[data-testid="pool-row"][data-number="${did}"]`).click();
      await pool.getByTestId('pool-confirm').click();
      await page.getByTestId('number-notice').filter({ hasText: '1 number(s) are yours' }).waitFor();
      await page
        .getByTestId('balance-amount')
        .filter({ hasText: money(TOP_UP - SETUP_FEE) })
        .waitFor();
      const numberRow = page.locator(`[data-testid="number-row"][data-number="${did}"]`);
      await numberRow.getByRole('combobox').first().click(); // the campaign's (the source's is next)
      await page.getByRole('option', { name: names.campaign }).click();
      await page
        .getByTestId('number-notice')
        .filter({ hasText: `Calls to ${did} now go to campaign ${names.campaign}.` })
        .waitFor();

      phase('customer done');
      // ---- the call: Live Calls is open before it is placed, and shows it while it talks
      await open(page, 'live-calls');
      await page.getByText('No calls in progress.').waitFor();
      console.log(`CALL ${JSON.stringify({ did, pin, trunk: names.trunk })}`);
      phase('call asked for');
      // While the call comes in: the buyer signs in, the admin issues the customer's last (finished) month.
      const buyerSignedIn = meanwhile(async () => {
        const buyer = await newPage(1440);
        await signInUi(buyer, 'callBuyer');
        return buyer;
      });
      const invoiced = meanwhile(async () => {
        await open(admin, 'invoice');
        await admin.getByTestId('invoice-generate').click();
        await pick(admin, 'invoice-customer', names.customer);
        await admin.getByTestId('invoice-generate-dialog').getByTestId('invoice-generate-go').click();
        await admin
          .getByTestId('invoice-notice')
          .filter({ hasText: /Invoice .* issued\./ })
          .waitFor();
      });
      const live = page.locator(`[data-testid="live-row"][data-caller="${caller}"]`);
      await live.and(page.locator('[data-state="connected"]')).waitFor({ timeout: 30000 });
      await cellHas(live, 'Target', names.target);
      await cellHas(live, 'Tracking number', did);
      await textChanges(live.getByTestId('live-duration'), { timeout: 3000 }); // talking: the time runs
      phase('call seen talking');
      await shot(page, 'real-call-live-1440.png');
      assert.equal(
        (await page.getByTestId('live-calls-badge').first().innerText()).trim(),
        '1',
        'the header counts it'
      );
      await live.getByTestId('live-hangup').click(); // the caller would talk for a minute
      await page.getByTestId('confirm-button').click();
      await page
        .getByTestId('live-notice')
        .filter({ hasText: `Call from ${caller} hung up.` })
        .waitFor();
      await live.waitFor({ state: 'detached' }); // the socket pushed the end

      phase('call ended');
      // ---- Report: the row, final once the bridge wrote its end and the worker rated it
      await open(page, 'report');
      const report = page.locator(`[data-testid="report-row"][data-caller="${caller}"]`);
      const search = () => clickAndAnswer(page, page.getByTestId('report-search'), '/report?');
      await refreshUntil((timeout) => cellHas(report, 'Cost', /^\$\d+\.\d{4}$/, { timeout }), search);
      await cellHas(report, 'Disposition', 'ANSWERED');
      await cellHas(report, 'Campaign', names.campaign);
      await cellHas(report, 'Target', names.target);
      await cellHas(report, 'Hung up by', 'portal');
      const shown = await (await cell(report, 'Billed')).innerText();
      const time = /^(\d+):(\d{2})$/.exec(shown); // m:ss, a call under an hour
      assert.ok(time, `billed ${shown}`);
      const billed = Number(time[1]) * 60 + Number(time[2]);
      assert.ok(billed >= 1, `billed ${billed} s`);
      const cost = CONNECT_FEE + (PER_MINUTE * billed) / 60; // the rate card's price for that talk time
      await cellHas(report, 'Cost', rate(cost));
      await report.click();
      const detail = page.getByTestId('call-detail');
      await detail.locator('[data-testid="trail-entry"][data-step="ivr"]').filter({ hasText: 'passed' }).waitFor(); // the PIN was right
      await shot(page, 'real-call-report-1440.png');
      await page.keyboard.press('Escape');
      await detail.waitFor({ state: 'detached' });

      phase('report done');
      // ---- Wallet: the debit, the balance after it; the header shows the same balance
      await open(page, 'wallet');
      const debit = page.locator('[data-testid="wallet-row"][data-reference^="call:"]');
      await cellHas(debit, 'Type', 'Call');
      await cellHas(debit, 'Amount', `-${money(cost)}`);
      const left = TOP_UP - SETUP_FEE - cost;
      await cellHas(debit, 'Balance after', money(left));
      await page
        .getByTestId('balance-amount')
        .filter({ hasText: money(left) })
        .waitFor();
      await page
        .getByTestId('wallet-debits')
        .filter({ hasText: `-${money(SETUP_FEE + cost)}` })
        .waitFor();
      await page
        .getByTestId('wallet-net')
        .filter({ hasText: money(left) })
        .waitFor();
      // The export has the ledger's own figures (4 places): the call's debit and the balance after it.
      const csv = (await downloaded(page, page.getByTestId('wallet-export'))).data.trim().split('\r\n');
      const line = csv.find((l) => l.includes(',call,'));
      assert.ok(line, csv.join('\n'));
      assert.ok(line.endsWith(`,${(-cost).toFixed(4)},${left.toFixed(4)}`), line);
      assert.equal(csv.length, 4, 'the header, the top-up, the setup fee and the call');
      await shot(page, 'real-call-wallet-1440.png');

      // ---- Dashboard: one call, answered, in its campaign
      await open(page, 'dashboard');
      await page.getByTestId('stat-calls-value').filter({ hasText: /^1$/ }).waitFor();
      await page.getByTestId('stat-answered-value').filter({ hasText: /^1$/ }).waitFor();
      await page.getByTestId('dashboard-campaigns').getByText(names.campaign).waitFor();
      await still(page);
      await shot(page, 'real-call-dashboard-1440.png');

      phase('wallet, dashboard done');
      // ---- the buyer's report
      const buyer = await buyerSignedIn;
      await buyer.getByTestId('buyer-chip-report').click();
      const bought = buyer.locator(`[data-testid="buyercdr-row"][data-caller="${caller}"]`);
      await cellHas(bought, 'Target', names.target);
      await cellHas(bought, 'Disposition', 'ANSWERED');
      await shot(buyer, 'real-call-buyercdr-1440.png');

      phase('buyer done');
      // ---- the invoice the admin issued meanwhile: the customer downloads its PDF
      await invoiced;
      await open(page, 'invoice');
      const invoice = page.getByTestId('invoice-row').first();
      await cellHas(invoice, 'Status', 'issued');
      const pdf = await downloaded(page, invoice.getByTestId('invoice-pdf'), { binary: true });
      assert.match(pdf.name, /^INV-\d{6}-\d+\.pdf$/);
      assert.equal(pdf.data.subarray(0, 5).toString(), '%PDF-');

      phase('invoice done');
      noErrors(admin, page, buyer);
      await Promise.all([admin, page, buyer].map((p) => p.context().close()));
    },
    { timeout: 150000 }
  );
}
