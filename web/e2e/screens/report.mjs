// The call report as an analysis tool (issue 37): sorted by a header on the server, columns chosen,
// a date preset, the view's URL opened in a second browser context shows the same view, a view
// saved and opened again, calls grouped by campaign with totals equal to sums computed here from
// the API's rows; at 390 px the filters fold behind a button and the page never scrolls sideways;
// a ticked call's caller blocked from the report (confirmed first) is then on Block Number.
// The customer's calls are seeded by tests/web/test_e2e.py (two campaigns, the last five days, and
// one call from E2E_BLOCK_CALLER).
import assert from 'node:assert/strict';
import { noErrors } from '../page-errors.mjs';
import { still } from '../waits.mjs';

/** @typedef {import('../../src/client/types.gen.ts').CallReportRow} CallReportRow */
/** @typedef {import('../../src/client/types.gen.ts').ReportGroups} ReportGroups */

/** Money as 4-place strings in ten-thousandths (integers: sums exact). @param {string | null | undefined} value */
const units = (value) => Math.round(Number(value ?? 0) * 10000);

/**
 * The day `days` before today in `timeZone`, YYYY-MM-DD.
 * @param {string} timeZone
 * @param {number} days
 */
function localDay(timeZone, days = 0) {
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit'
  }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

/** @param {import('../run.mjs').Harness} harness */
export default function registerReportScenarios({ test, newPage, signIn, shot, api }) {
  /**
   * Every call of the customer's under `query` (all pages), as the API lists them.
   * @param {string} query
   * @returns {Promise<CallReportRow[]>}
   */
  async function allRows(query) {
    /** @type {CallReportRow[]} */
    const rows = [];
    for (let page = 1; ; page += 1) {
      const answer = await api('customer', 'GET', `/report?perpage=500&page=${page}&${query}`);
      assert.equal(answer.status, 200, answer.message);
      rows.push(...answer.data.data);
      if (answer.data.data.length < 500) return rows;
    }
  }

  /**
   * The ids of the report's rows on screen, once they are `ids`.
   * @param {import('playwright-core').Page} page
   * @param {number[]} ids
   */
  async function rowsAre(page, ids) {
    const shown = () =>
      page.getByTestId('report-row').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-id'))));
    await page.waitForFunction(
      (want) =>
        JSON.stringify(
          [...document.querySelectorAll('[data-testid="report-row"]')].map((r) => Number(r.getAttribute('data-id')))
        ) === JSON.stringify(want),
      ids
    );
    assert.deepEqual(await shown(), ids);
  }

  /**
   * What a group table says, by group name: each measure's exact value.
   * @param {import('playwright-core').Page} page
   */
  async function groupsShown(page) {
    await page.getByTestId('report-group-totals').waitFor();
    return page
      .locator('[data-testid="report-group"], [data-testid="report-group-totals"]')
      .evaluateAll((rows) =>
        Object.fromEntries(
          rows.map((row) => [
            row.getAttribute('data-testid') === 'report-group-totals'
              ? '*'
              : (row.querySelector('td')?.textContent ?? ''),
            Object.fromEntries(
              [...row.querySelectorAll('[data-measure]')].map((cell) => [
                cell.getAttribute('data-measure'),
                cell.getAttribute('data-value')
              ])
            )
          ])
        )
      );
  }

  test(
    'customer: the report sorts, chooses columns, takes a preset, shares its URL, saves a view, groups with totals',
    async () => {
      const page = await newPage(1440);
      await signIn(page, 'customer', '/report');
      await page.getByTestId('report-row').first().waitFor();

      // Sorted by cost on the server: largest first, then smallest first (the header again).
      await page.getByTestId('report-sort-cost').click();
      await page.waitForURL(/sort=cost(?!.*direction)/);
      const byCost = (await api('customer', 'GET', '/report?sort=cost&perpage=25')).data.data;
      assert.ok(byCost.length >= 10, 'the seeded calls are there');
      await rowsAre(
        page,
        byCost.map((/** @type {CallReportRow} */ c) => c.id)
      );
      const costs = byCost.map((/** @type {CallReportRow} */ c) => units(c.cost));
      assert.deepEqual(
        costs,
        [...costs].sort((a, b) => b - a),
        'the API sorts by cost'
      );
      await page.getByTestId('report-sort-cost').click();
      await page.waitForURL(/sort=cost.*direction=asc/);
      const cheapest = (await api('customer', 'GET', '/report?sort=cost&direction=asc&perpage=25')).data.data;
      await rowsAre(
        page,
        cheapest.map((/** @type {CallReportRow} */ c) => c.id)
      );

      // Columns: the caller hidden, the duration shown; kept in the URL.
      await page.getByTestId('report-columns').click();
      await page.getByTestId('report-column-caller').click();
      await page.getByTestId('report-column-duration').click();
      await page.keyboard.press('Escape');
      await page.getByTestId('report-col-caller').waitFor({ state: 'detached' });
      await page.getByTestId('report-col-duration').waitFor();
      assert.match(page.url(), /cols=[^&]*duration/);

      // The back button walks the changes back (each column was one), and forward again.
      await page.goBack();
      await page.getByTestId('report-col-duration').waitFor({ state: 'detached' });
      assert.equal(await page.getByTestId('report-col-caller').count(), 0);
      await page.goBack();
      await page.getByTestId('report-col-caller').waitFor();
      await page.goForward();
      await page.goForward();
      await page.getByTestId('report-col-duration').waitFor();
      assert.equal(await page.getByTestId('report-col-caller').count(), 0);

      // A preset: the last 7 days in the customer's zone (Europe/Berlin).
      await page.getByRole('combobox', { name: 'Period' }).click();
      await page.getByTestId('report-preset-7d').click();
      await page.getByTestId('report-search').click();
      await page.waitForURL(/preset=7d/);

      // Grouped by campaign: the totals equal sums of the API's rows for the same days.
      await page.getByRole('combobox', { name: 'Group by' }).click();
      await page.getByTestId('report-group-by-campaign').click();
      await page.waitForURL(/group=campaign/);
      const rows = await allRows(`fromDate=${localDay('Europe/Berlin', 6)}&toDate=${localDay('Europe/Berlin')}`);
      /** @type {Record<string, { calls: number, answered: number, revenue: number, cost: number, profit: number }>} */
      const expected = {};
      for (const c of rows) {
        for (const key of [c.campaign_name ?? '(none)', '*']) {
          const sum = (expected[key] ??= { calls: 0, answered: 0, revenue: 0, cost: 0, profit: 0 });
          sum.calls += 1;
          sum.answered += c.disposition === 'ANSWERED' ? 1 : 0;
          sum.revenue += units(c.payout);
          sum.cost += units(c.cost);
          sum.profit += units(c.payout) - units(c.cost);
        }
      }
      const shown = await groupsShown(page);
      assert.deepEqual(Object.keys(shown).sort(), Object.keys(expected).sort());
      for (const [name, sum] of Object.entries(expected)) {
        const group = shown[name];
        assert.ok(group, name);
        assert.equal(Number(group.calls), sum.calls, `${name}: calls`);
        assert.equal(Number(group.answered), sum.answered, `${name}: answered`);
        for (const money of /** @type {const} */ (['revenue', 'cost', 'profit']))
          assert.equal(units(group[money]), sum[money], `${name}: ${money}`);
      }
      assert.equal(
        await page.getByTestId('report-total-calls').getAttribute('data-value'),
        String(expected['*']?.calls),
        'the totals above the table count the same calls'
      );
      await still(page);
      await shot(page, 'report-grouped-1440.png');

      // The URL, opened in a second browser context, shows the same view.
      const url = page.url();
      const other = await newPage(1440);
      await signIn(other, 'customer', '/dashboard');
      await other.goto(url);
      assert.deepEqual(await groupsShown(other), shown);
      await other.getByTestId('report-col-duration').waitFor();
      assert.equal(await other.getByTestId('report-col-caller').count(), 0);
      assert.equal(await other.getByRole('combobox', { name: 'Period' }).innerText(), 'Last 7 days');
      await rowsAre(
        other,
        await page.getByTestId('report-row').evaluateAll((r) => r.map((row) => Number(row.getAttribute('data-id'))))
      );
      noErrors(other);
      await other.context().close();

      // Saved under a name, then opened again from a plain report.
      const name = `Cheapest by campaign ${Date.now() % 100000}`;
      await page.getByTestId('report-view-save').click();
      await page.getByTestId('report-view-name').fill(name);
      await page.getByTestId('report-view-confirm').click();
      await page.getByTestId('report-view-name').waitFor({ state: 'detached' });
      const saved = (await api('customer', 'GET', '/report/views')).data.find(
        (/** @type {{name: string}} */ v) => v.name === name
      );
      assert.ok(saved, 'the view is stored on the server');
      assert.deepEqual(
        [saved.sort, saved.direction, saved.group_by, saved.filters.preset],
        ['cost', 'asc', 'campaign', '7d']
      );
      await page.goto(url.split('?')[0] ?? url);
      // A plain report keeps the person's own columns (chosen above), and puts them in its URL.
      await page.getByTestId('report-col-duration').waitFor();
      assert.equal(await page.getByTestId('report-col-caller').count(), 0);
      await page.waitForURL(/cols=/);
      await page.getByTestId('report-groups').waitFor({ state: 'detached' });
      await page.getByRole('combobox', { name: 'Saved views' }).click();
      await page.getByRole('option', { name }).click();
      await page.waitForURL(/group=campaign/);
      assert.deepEqual(await groupsShown(page), shown);
      assert.equal(new URL(page.url()).searchParams.get('sort'), 'cost');
      assert.equal(new URL(page.url()).searchParams.get('direction'), 'asc');
      await page.getByTestId('report-view-delete').click();
      await page.getByTestId('report-view-delete').waitFor({ state: 'detached' });
      noErrors(page);
      await page.context().close();
    },
    { timeout: 180000 }
  );

  test('customer at 390 px: the report folds its filters behind a button and never scrolls sideways', async () => {
    const page = await newPage(390, 844);
    await signIn(page, 'customer', '/report');
    await page.getByTestId('report-row').first().waitFor();
    assert.equal(await page.getByTestId('report-search').isVisible(), false, 'the filters are folded');
    const wide = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(await wide(), 0, 'no sideways page scroll');
    await shot(page, 'report-390.png');
    await page.getByTestId('report-filters-toggle').click();
    await page.getByTestId('report-search').waitFor({ state: 'visible' });
    assert.equal(await wide(), 0, 'no sideways page scroll with the filters open');
    await still(page);
    await shot(page, 'report-390-filters.png');
    noErrors(page);
    await page.context().close();
  });

  const blockCaller = process.env.E2E_BLOCK_CALLER;
  if (blockCaller) {
    test("customer: a ticked call's caller blocked from the report is on Block Number", async () => {
      const page = await newPage(1440);
      await signIn(page, 'customer', `/report?caller_number=${encodeURIComponent(blockCaller)}`);
      const row = page.locator(`[data-testid="report-row"][data-caller="${blockCaller}"]`).first();
      await row.waitFor();
      assert.equal(await page.getByTestId('report-block-callers').isDisabled(), true, 'nothing ticked yet');
      await row.getByTestId('report-select').click();
      await page.getByTestId('report-block-callers').click();
      const dialog = page.getByTestId('confirm-dialog');
      assert.match(await dialog.innerText(), new RegExp(`Block \\${blockCaller}\\?`));
      // Cancelled: nothing blocked.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      const blocked = async () =>
        (await api('customer', 'GET', `/block/details?perpage=100`)).data.data.filter(
          (/** @type {{pattern: string}} */ b) => b.pattern === blockCaller
        );
      assert.deepEqual(await blocked(), [], 'a cancelled block blocks nothing');
      await page.getByTestId('report-block-callers').click();
      await page.getByTestId('confirm-button').click();
      assert.equal(await page.getByTestId('report-notice').innerText(), '1 caller blocked.');
      assert.equal(await page.getByTestId('report-block-callers').isDisabled(), true, 'the ticks are cleared');
      const [entry] = await blocked();
      assert.ok(entry, 'the API lists the block');
      assert.equal(entry.status, 'active');
      await shot(page, 'report-block-callers.png');

      await signIn(page, 'customer', '/block-number');
      const listed = page.locator(`[data-testid="block-row"][data-pattern="${blockCaller}"]`);
      await listed.waitFor();
      assert.match(await listed.innerText(), /Your calls/);
      noErrors(page);
      await page.context().close();
    });
  }
}
