// Numbers: the admin fills the pool on /manage-number; the customer takes one on /number (one with
// a setup fee refused on an empty wallet) and points it at a campaign; the admin suspends and
// releases it. /uploadnumber: its sample, the row cap, a CSV with its per-line report, past
// uploads. /block-number: a caller blocked as typed, once only, then unblocked.
import assert from 'node:assert/strict';
import { cellHas } from '../cells.mjs';
import { downloaded } from '../downloads.mjs';
import { noErrors } from '../page-errors.mjs';
import { still } from '../waits.mjs';

// The API's answers, as the generated client types them.
/** @typedef {import('../../src/client/types.gen.ts').NumberRow} NumberRow */
/** @typedef {import('../../src/client/types.gen.ts').UploadBatchOut} UploadBatchOut */
/** @typedef {import('../../src/client/types.gen.ts').VendorOut} VendorOut */

/** @param {import('../run.mjs').Harness} harness */
export default function registerNumberScenarios({ test, newPage, signIn, shot, api, BASE }) {
  test('numbers: the admin fills the pool, the customer takes one and points it at a campaign', async () => {
    const stamp = Date.now() % 10000;
    /** @param {number} n */
    const digits = (n) => String(n % 10000).padStart(4, '0');
    const [paid, free] = [`+44207946${digits(stamp)}`, `+44207946${digits(stamp + 1)}`];
    const admin = await newPage(1440);
    await signIn(admin, 'admin', '/manage-number');
    for (const [number, fee] of /** @type {const} */ ([
      [paid, '5'],
      [free, '0']
    ])) {
      await admin.getByTestId('number-add').click();
      await admin.getByTestId('number-number').fill(number.replace('+44', '+44 '));
      await admin.getByTestId('number-setup_fee').fill(fee);
      await admin.getByTestId('number-monthly_fee').fill('1.5');
      await admin.getByTestId('number-dialog').getByTestId('number-save').click();
      await admin
        .getByTestId('number-notice')
        .filter({ hasText: `Number ${number} added to the pool.` })
        .waitFor();
    }
    const adminRow = admin.locator(`[data-testid="number-row"][data-number="${free}"]`);
    await admin.getByRole('textbox', { name: 'Search numbers' }).fill(free);
    assert.equal(await adminRow.getByTestId('number-customer').innerText(), 'Pool');

    const page = await newPage(1440);
    await signIn(page, 'customer', '/campaign');
    const campaign = `E2E Numbers ${stamp}`;
    await page.getByTestId('campaign-add').click();
    await page.getByTestId('campaign-name').fill(campaign);
    await page.getByTestId('campaign-dialog').getByTestId('campaign-save').click();
    await page
      .getByTestId('campaign-notice')
      .filter({ hasText: `Campaign ${campaign} created.` })
      .waitFor();
    await page.goto(`${BASE}/number`);
    await page.getByTestId('number-take').click();
    const pool = page.getByTestId('pool-dialog');
    await pool.getByRole('textbox', { name: 'Search the pool' }).fill(paid);
    await pool.locator(`[data-testid="pool-row"][data-number="${paid}"]`).click();
    assert.match(await pool.getByTestId('pool-summary').innerText(), /1 number\(s\) picked; setup fees \$5\.00/);
    await pool.getByTestId('pool-confirm').click();
    // The wallet is empty: nothing is taken, and the server says why.
    await pool.getByTestId('pool-error').waitFor();
    await pool.locator(`[data-testid="pool-row"][data-number="${paid}"]`).click();
    await pool.getByRole('textbox', { name: 'Search the pool' }).fill(free);
    await pool.locator(`[data-testid="pool-row"][data-number="${free}"]`).click();
    await pool.getByTestId('pool-confirm').click();
    await page.getByTestId('number-notice').filter({ hasText: '1 number(s) are yours' }).waitFor();
    const row = page.locator(`[data-testid="number-row"][data-number="${free}"]`);
    await row.waitFor();
    assert.equal(
      await page.locator(`[data-testid="number-row"][data-number="${paid}"]`).count(),
      0,
      'the unpaid number stayed in the pool'
    );
    await row.getByRole('combobox').first().click(); // the campaign's (the source's is next)
    await page.getByRole('option', { name: campaign }).click();
    await page
      .getByTestId('number-notice')
      .filter({ hasText: `Calls to ${free} now go to campaign ${campaign}.` })
      .waitFor();
    await page.reload();
    await cellHas(row, 'Campaign', campaign); // still pointed at it after a reload
    await still(page);
    await shot(page, 'numbers-1440.png');

    await admin.reload();
    await admin.getByRole('textbox', { name: 'Search numbers' }).fill(free);
    await cellHas(adminRow, 'Campaign', campaign);
    assert.equal(await adminRow.getByTestId('number-customer').innerText(), 'Alice Customer');
    await adminRow.getByRole('combobox').click();
    await admin.getByRole('option', { name: 'suspended' }).click();
    await admin
      .getByTestId('number-notice')
      .filter({ hasText: `Number ${free} is now suspended.` })
      .waitFor();
    await adminRow.getByTestId('number-release').click();
    await admin.getByTestId('confirm-button').click();
    await admin.getByTestId('number-notice').filter({ hasText: '1 number(s) released to the pool.' }).waitFor();
    await adminRow.getByTestId('number-customer').filter({ hasText: 'Pool' }).waitFor();

    await page.reload();
    await row.waitFor({ state: 'detached' });
    noErrors(page, admin);
    await page.context().close();
    await admin.context().close();
  });

  test('admin: /uploadnumber — sample file, the row cap, a CSV imported with its per-line report, past uploads', async () => {
    const page = await newPage(1440);
    await signIn(page, 'admin', '/manage-number');
    await page.getByTestId('number-upload').click();
    await page.waitForURL(/\/uploadnumber$/);
    assert.equal(await page.getByTestId('upload-cap').innerText(), '100,000 numbers per file');

    const sample = (await downloaded(page, page.getByTestId('upload-sample'))).data;
    assert.match(sample, /^number,country,vendor,setup_fee,monthly_fee\n\+442079460001,GB,/);

    /**
     * @param {string} name
     * @param {string} text
     */
    const file = (name, text) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
    const header = 'number,country,vendor,setup_fee,monthly_fee\n';
    const many = Array.from({ length: 100001 }, (_, i) => `+4420794${String(i).padStart(5, '0')},GB,,0,0`).join('\n');
    await page.getByTestId('upload-file').setInputFiles(file('too-many.csv', header + many));
    await page
      .getByTestId('upload-error')
      .filter({ hasText: 'The file has 100,001 numbers; a file takes at most 100,000; split it.' })
      .waitFor();
    assert.equal(await page.getByTestId('upload-submit').isDisabled(), true, 'not sent');

    const stamp = Date.now() % 100000;
    /** @type {VendorOut} */
    const vendor = (await api('admin', 'POST', '/vendor/add', { name: `E2E Upload Vendor ${stamp}` })).data;
    const digits = String(stamp % 10000).padStart(4, '0');
    const [first, second] = [`+44161496${digits}`, `+1415555${digits}`];
    const filename = `e2e-numbers-${stamp}.csv`;
    const lines = [
      `${first},GB,${vendor.name},1.25,2`,
      `${second},US,,,`,
      `${first},GB,,0,0`,
      'not-a-number,GB,,0,0',
      `+44161497${digits},GB,Nobody Telecom,0,0`
    ];
    await page.getByTestId('upload-file').setInputFiles(file(filename, header + lines.join('\n')));
    await page
      .getByTestId('upload-chosen')
      .filter({ hasText: `${filename}: 5 number(s)` })
      .waitFor();
    await page.getByTestId('upload-submit').click();
    await page.getByTestId('upload-summary').filter({ hasText: 'Imported 2 of 5 line(s); 3 skipped.' }).waitFor();
    // The skipped lines, each with its reason; imported lines are only counted.
    /** @param {number} n */
    const line = (n) => page.locator(`[data-testid="report-line"][data-line="${n}"]`);
    await line(4).getByText('duplicate of line 2').waitFor();
    await line(5)
      .getByText(/invalid E\.164/)
      .waitFor();
    await line(6).getByText("unknown vendor 'Nobody Telecom'").waitFor();
    assert.equal(await line(2).count(), 0, 'imported lines are not listed');
    const past = page.locator(`[data-testid="uploads-row"][data-file="${filename}"]`);
    assert.match(await past.innerText(), /Ada Admin\s+5\s+2\s+3/);
    await still(page);
    await shot(page, 'uploadnumber-1440.png');

    /** @type {NumberRow[]} */
    const imported = (await api('admin', 'GET', `/number/details?params=${encodeURIComponent(first)}`)).data.data;
    assert.deepEqual(
      imported.map((n) => [n.number, n.vendor_id, n.setup_fee, n.monthly_fee, n.user_id]),
      [[first, vendor.id, '1.2500', '2.0000', null]]
    );
    /** @type {UploadBatchOut | undefined} */
    const batch = (await api('admin', 'GET', `/number/vcrs?params=${filename}`)).data.data[0];
    assert.ok(batch, `the API has the upload of ${filename}`);
    assert.deepEqual([batch.total, batch.imported, batch.skipped], [5, 2, 3]);
    noErrors(page);
    await page.context().close();
  });

  test('customer: block a caller as typed, once only, then unblock it', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/block-number');
    const last = String(Date.now() % 10000).padStart(4, '0');
    const caller = `+1415555${last}`;
    for (const attempt of [1, 2]) {
      await page.getByTestId('block-add').click();
      await page.getByTestId('block-pattern').fill(`+1 (415) 555-${last}`);
      await page.getByTestId('block-reason').fill('Robocaller');
      await page.getByTestId('block-dialog').getByTestId('block-save').click();
      if (attempt === 1)
        await page
          .getByTestId('block-notice')
          .filter({ hasText: `${caller} blocked.` })
          .waitFor();
    }
    await page.getByTestId('block-dialog').getByText(`${caller} is already blocked.`).waitFor();
    await page.getByTestId('block-dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('textbox', { name: 'Search blocks' }).fill(caller);
    const row = page.locator(`[data-testid="block-row"][data-pattern="${caller}"]`);
    await cellHas(row, 'Match', 'This number');
    await cellHas(row, 'Covers', 'Your calls');
    await cellHas(row, 'Reason', 'Robocaller');
    await row.getByTestId('block-status').click();
    await page
      .getByTestId('block-notice')
      .filter({ hasText: `Block ${caller} is now inactive.` })
      .waitFor();
    await row.getByTestId('block-delete').click();
    await page.getByTestId('confirm-button').click();
    await page
      .getByTestId('block-notice')
      .filter({ hasText: `Block ${caller} deleted.` })
      .waitFor();
    await row.waitFor({ state: 'detached' });
    noErrors(page);
    await page.context().close();
  });
}
