// The app as a whole: what the browser is sent before the first route (its size, compression and
// caching; the chart library only with the dashboard), and every signed-in route's lazy page.
import assert from 'node:assert/strict';
import { noErrors } from '../page-errors.mjs';

/**
 * A response as it came over the wire.
 * @typedef {{ url: string, type: string, bytes: number, encoding: string, cache: string }} Received
 */
/**
 * What a page received.
 * @typedef {object} Wire
 * @property {Received[]} responses
 * @property {string[]} errors a response that could not be measured
 * @property {() => number} bytes all the responses' bytes
 * @property {() => Promise<unknown>} settled until every response finished so far is measured
 */
/**
 * Every response the page gets: bytes over the wire (headers + body as sent, i.e. compressed),
 * encoding and cache header. `await wire.settled()` before reading.
 * @param {import('playwright-core').Page} page
 * @returns {Wire}
 */
function watchWire(page) {
  /** @type {Promise<unknown>[]} */
  const pending = [];
  /** @type {Wire} */
  const wire = {
    responses: [],
    errors: [],
    bytes: () => wire.responses.reduce((s, r) => s + r.bytes, 0),
    settled: () => Promise.all(pending)
  };
  page.on('requestfinished', (request) => {
    pending.push(
      (async () => {
        const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
        /** @type {Record<string, string>} */
        const headers = response ? await response.allHeaders() : {};
        wire.responses.push({
          url: request.url(),
          type: request.resourceType(),
          bytes: sizes.responseHeadersSize + sizes.responseBodySize,
          encoding: headers['content-encoding'] || '',
          cache: headers['cache-control'] || ''
        });
      })().catch((err) => wire.errors.push(String(err)))
    );
  });
  return wire;
}
/**
 * URLs of the scripts received that carry the chart library (recharts, by its class name). A hashed
 * script never changes, so it is read again here rather than from a page that may have moved on.
 * @param {Wire} wire
 */
async function chartScripts(wire) {
  const scripts = wire.responses.filter((r) => r.type === 'script');
  const texts = await Promise.all(scripts.map(async (r) => (await fetch(r.url)).text()));
  return scripts.filter((_, i) => texts[i]?.includes('recharts-wrapper')).map((r) => r.url);
}

/** @param {import('../run.mjs').Harness} harness */
export default function registerAppScenarios({ test, newPage, signIn, signInUi, sessions, BASE, TEST_TIMEOUT }) {
  test('the UI comes compressed and cached: <= 250 KB before the first route, charts only on the dashboard', async () => {
    const page = await newPage();
    const wire = watchWire(page);
    await page.goto(`${BASE}/login`);
    await page.getByTestId('login-submit').waitFor();
    await page.evaluate(() => document.fonts.ready);
    await page.waitForLoadState('networkidle');
    await wire.settled();
    assert.deepEqual(wire.errors, [], 'every response of /login measured');
    const kb = wire.bytes() / 1024;
    const listing = wire.responses.map(
      (r) => `${(r.bytes / 1024).toFixed(1).padStart(6)} KB ${r.encoding.padEnd(4)} ${new URL(r.url).pathname}`
    );
    console.log(`     /login: ${kb.toFixed(1)} KB over the wire in ${wire.responses.length} responses`);
    assert.ok(
      kb <= 250,
      `${kb.toFixed(1)} KB before the first route is over the 250 KB budget:\n${listing.join('\n')}`
    );
    const html = wire.responses.find((r) => r.type === 'document');
    assert.ok(html, 'index.html received');
    assert.match(html.encoding, /^(br|gzip)$/, 'index.html compressed');
    assert.equal(html.cache, 'no-cache', 'index.html revalidated');
    const assets = wire.responses.filter((r) => new URL(r.url).pathname.startsWith('/assets/'));
    assert.ok(
      assets.some((r) => r.type === 'font'),
      'the font arrives'
    );
    for (const r of assets) {
      assert.equal(r.cache, 'public, max-age=31536000, immutable', `${r.url} cached for good`);
      if (r.type === 'font')
        assert.match(r.url, /latin-wght-normal-[\w-]+\.woff2$/, 'font: the variable woff2, latin subset');
      else assert.match(r.encoding, /^(br|gzip)$/, `${r.url} compressed`);
    }
    assert.deepEqual(await chartScripts(wire), [], 'no chart library on /login');

    if (!sessions.customer) {
      const first = await newPage();
      await signInUi(first, 'customer');
      await first.context().close();
    }
    await signIn(page, 'customer', '/report');
    await page.getByTestId('page-title').filter({ hasText: 'Report' }).waitFor();
    await page.waitForLoadState('networkidle');
    await wire.settled();
    assert.deepEqual(await chartScripts(wire), [], 'no chart library on /report');
    await page.getByTestId('nav-item-dashboard').click();
    await page.getByTestId('page-title').filter({ hasText: 'Dashboard' }).waitFor();
    await page.waitForLoadState('networkidle');
    await wire.settled();
    assert.equal((await chartScripts(wire)).length, 1, 'the chart library arrives with the dashboard');
    await page.context().close();
  });

  test(
    'every signed-in route renders its lazy page; unknown path lands on /dashboard',
    async () => {
      const page = await newPage(1440);
      await signIn(page, 'admin');
      const paths = [
        'buyercdr',
        'report',
        'manage-number',
        'uploadnumber',
        'number',
        'manage-trunk',
        'campaign',
        'target',
        'buyer-target',
        'block-number',
        'buyer',
        'ivr',
        'user_ivr',
        'customer',
        'vendor',
        'topup',
        'tariff',
        'rate-card',
        'live-calls',
        'wallet',
        'invoice',
        'changepassword',
        'profile'
      ];
      for (const p of paths) {
        await page.goto(`${BASE}/${p}`);
        const title = page.getByTestId('page-title');
        await title.waitFor();
        assert.ok(((await title.innerText()) || '').trim().length > 0, `title on /${p}`);
        assert.match(page.url(), new RegExp(`/${p}$`));
      }
      await page.goto(`${BASE}/`);
      await page.getByTestId('page-title').filter({ hasText: 'Dashboard' }).waitFor();
      await page.goto(`${BASE}/no/such/page`);
      await page.waitForURL(/\/dashboard$/);
      await page.getByTestId('page-title').filter({ hasText: 'Dashboard' }).waitFor();
      noErrors(page);
      await page.context().close();
    },
    { timeout: 2 * TEST_TIMEOUT }
  ); // 24 full page loads
}
