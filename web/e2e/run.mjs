#!/usr/bin/env node
// Browser tests: playwright-core driving Debian's Chromium (/usr/bin/chromium), headless.
//
//   BASE_URL=http://127.0.0.1:8000 ADMIN_EMAIL=... ADMIN_PASSWORD=... CUSTOMER_EMAIL=... \
//   CUSTOMER_PASSWORD=... CUSTOMER_NAME=... BUYER_EMAIL=... BUYER_PASSWORD=... node e2e/run.mjs
//
// BASE_URL is the real API serving the built UI (tests/test_web_e2e.py starts one); there is no
// stand-in server. Screenshots go to web/test-artifacts/.
// Prints "N passed, N failed" and exits 1 when any test failed.
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import registerBiddingScenario from './bidding.mjs';
import registerOperationScenarios from './operations.mjs';
import registerRealCall from './real-call.mjs';
import registerRegionScenarios from './regions.mjs';
import registerWebhookScenarios from './webhooks.mjs';
import { clickAndAnswer, refreshUntil, still, textChanges } from './waits.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = process.env.E2E_ARTIFACTS || join(here, '..', 'test-artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const TEST_TIMEOUT = Number(process.env.E2E_TEST_TIMEOUT || 60000);
const ONLY = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY, 'i') : null;
mkdirSync(ARTIFACTS, { recursive: true });

const need = (k) => {
  const v = process.env[k];
  if (!v) throw new Error(`env ${k} is required`);
  return v;
};
const BASE = need('BASE_URL').replace(/\/$/, '');
// Read when a test signs in, so a run limited by E2E_ONLY needs only the accounts it uses.
const account = (prefix, name = '') => ({
  name,
  get email() {
    return need(`${prefix}_EMAIL`);
  },
  get password() {
    return need(`${prefix}_PASSWORD`);
  }
});
const ACCOUNTS = {
  admin: account('ADMIN'),
  customer: account('CUSTOMER', process.env.CUSTOMER_NAME || ''),
  buyer: account('BUYER')
};

const ADMIN_GROUPS = {
  Main: ['Dashboard', 'User', 'Buyer', 'Trunk'],
  Feature: ['Campaign', 'Target', 'IVR Auth'],
  Number: ['Number', 'Block Number'],
  Report: ['Report', 'Live Calls'],
  Billing: ['Tariff', 'Rate Card', 'Topup', 'Wallet', 'Invoice']
};
const USER_GROUPS = {
  Main: ['Dashboard', 'Block Number', 'Number', 'Buyer'],
  Feature: ['Campaign', 'Target', 'IVR Auth'],
  Report: ['Live Calls', 'Report'],
  Billing: ['Wallet', 'Invoice']
};
const CHROME_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'];
const CLOCK = /^\d{2}:\d{2}:\d{2} (AM|PM)$/;

// ---------------------------------------------------------------- tiny harness
const tests = [];
// `timeout` (ms) for a test that loads many pages; others get TEST_TIMEOUT.
const test = (name, fn, { timeout = TEST_TIMEOUT } = {}) => tests.push({ name, fn, timeout });

// ---------------------------------------------------------------- helpers
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROME_ARGS });
const sessions = {};

async function newPage(width = 1440, height = 900) {
  const context = await browser.newContext({ viewport: { width, height }, timezoneId: 'UTC', locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  page.on('dialog', (d) => {
    page.__dialogs = [...(page.__dialogs || []), d.message()];
    d.accept();
  });
  page.on('pageerror', (err) => {
    page.__errors = [...(page.__errors || []), String(err)];
  });
  return page;
}

/** What every page still open shows, saved as FAILED-*.png when a test fails. */
async function shootOpenPages(name) {
  const pages = browser.contexts().flatMap((c) => c.pages());
  const slug = name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
  await Promise.all(pages.map((p, i) => p.screenshot({ path: join(ARTIFACTS, `FAILED-${slug}-${i}.png`) }).catch(() => {})));
}

async function signInUi(page, role) {
  const { email, password } = ACCOUNTS[role];
  await page.goto(`${BASE}/login`);
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/dashboard$/);
  await page.getByTestId('page-title').filter({ hasText: 'Dashboard' }).waitFor();
  sessions[role] = await page.evaluate(() => ({ token: localStorage.getItem('token'), user: localStorage.getItem('user') }));
  assert.ok(sessions[role].token, 'token stored');
}

/** Reuse a session captured by signInUi (keeps the number of sign-ins small for a throttled API). */
async function signIn(page, role, path = '/dashboard') {
  if (!sessions[role]) {
    await signInUi(page, role);
    if (path === '/dashboard') return;
  } else {
    await page.goto(`${BASE}/login`);
    await page.evaluate((s) => {
      localStorage.setItem('token', s.token);
      localStorage.setItem('user', s.user);
    }, sessions[role]);
  }
  await page.goto(`${BASE}${path}`);
  await page.getByTestId('page-title').first().waitFor();
}

async function navTitles(page) {
  const groups = {};
  for (const list of await page.locator('nav [data-testid^="nav-group-group-"]').all()) {
    const title = (await list.getByTestId('nav-group-title').textContent())?.trim();
    groups[title] = (await list.locator('[data-testid^="nav-item-"]').allTextContents()).map((t) => t.trim());
  }
  return groups;
}

const visible = (page, id) => page.getByTestId(id).first().isVisible();

/**
 * The cell of table row `row` under the header `column`. Tests read cells by column, never by
 * searching a row for a text: random names ("E2E Leads 82052") can contain any short text.
 */
async function cell(row, column, { timeout } = {}) {
  await row.waitFor({ timeout });
  const headers = (await row.locator('xpath=ancestor::table[1]/thead/tr/th').allInnerTexts()).map((t) => t.trim());
  const index = headers.indexOf(column);
  assert.ok(index >= 0, `no column "${column}" among ${headers.join(', ')}`);
  return row.locator(':scope > td').nth(index);
}

/** Wait until the cell under `column` reads `text` exactly (a RegExp: matches it). */
async function cellHas(row, column, text, { timeout } = {}) {
  const pattern = text instanceof RegExp ? text : new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const deadline = timeout === undefined ? undefined : Date.now() + timeout;
  const target = await cell(row, column, { timeout });
  await target.filter({ hasText: pattern }).waitFor({ timeout: deadline && Math.max(1, deadline - Date.now()) });
}
const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, name), fullPage: false });
/**
 * Every response the page gets: bytes over the wire (headers + body as sent, i.e. compressed),
 * encoding and cache header. `await wire.settled()` before reading.
 */
function watchWire(page) {
  const pending = [];
  const wire = { responses: [], errors: [], bytes: () => wire.responses.reduce((s, r) => s + r.bytes, 0), settled: () => Promise.all(pending) };
  page.on('requestfinished', (request) => {
    pending.push(
      (async () => {
        const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
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
 */
async function chartScripts(wire) {
  const scripts = wire.responses.filter((r) => r.type === 'script');
  const texts = await Promise.all(scripts.map(async (r) => (await fetch(r.url)).text()));
  return scripts.filter((_, i) => texts[i].includes('recharts-wrapper')).map((r) => r.url);
}

// ---------------------------------------------------------------- scenarios
test('bad credentials show the server message and stay on /login', async () => {
  const page = await newPage();
  await page.goto(`${BASE}/login`);
  await page.locator('#email').fill(ACCOUNTS.admin.email);
  await page.locator('#password').fill(`${ACCOUNTS.admin.password}-wrong`);
  await page.getByTestId('login-submit').click();
  const alert = page.getByTestId('login-error');
  await alert.waitFor();
  assert.ok(((await alert.textContent()) || '').trim().length > 0, 'an error message is shown');
  assert.match(page.url(), /\/login$/);
  await shot(page, 'login-1440.png');
  await page.setViewportSize({ width: 390, height: 844 });
  await still(page);
  await shot(page, 'login-390.png');
  await page.context().close();
});

test('login form validates fields before calling the server', async () => {
  const page = await newPage();
  await page.goto(`${BASE}/login`);
  await page.getByTestId('login-submit').click();
  await page.getByText('Email is required').waitFor();
  await page.getByText('Password is required').waitFor();
  await page.locator('#email').fill('not-an-email');
  await page.getByText('Must be a valid email').waitFor();
  await page.context().close();
});

test('no stored token: a signed-in route goes to /login; /register is public', async () => {
  const page = await newPage();
  await page.goto(`${BASE}/report`);
  await page.waitForURL(/\/login$/);
  await page.goto(`${BASE}/register`);
  await page.getByTestId('register-form').waitFor();
  const tz = await page.locator('#timezone').inputValue();
  assert.equal(tz, 'UTC', 'timezone defaults to the browser timezone');
  await page.getByTestId('register-submit').click();
  await page.getByText('Name is required').waitFor();
  await page.locator('#password').fill('short');
  await page.getByText('Password must be at least 8 characters').waitFor();
  await page.context().close();
});

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
  const listing = wire.responses.map((r) => `${(r.bytes / 1024).toFixed(1).padStart(6)} KB ${r.encoding.padEnd(4)} ${new URL(r.url).pathname}`);
  console.log(`     /login: ${kb.toFixed(1)} KB over the wire in ${wire.responses.length} responses`);
  assert.ok(kb <= 250, `${kb.toFixed(1)} KB before the first route is over the 250 KB budget:\n${listing.join('\n')}`);
  const document = wire.responses.find((r) => r.type === 'document');
  assert.match(document.encoding, /^(br|gzip)$/, 'index.html compressed');
  assert.equal(document.cache, 'no-cache', 'index.html revalidated');
  const assets = wire.responses.filter((r) => new URL(r.url).pathname.startsWith('/assets/'));
  assert.ok(assets.some((r) => r.type === 'font'), 'the font arrives');
  for (const r of assets) {
    assert.equal(r.cache, 'public, max-age=31536000, immutable', `${r.url} cached for good`);
    if (r.type === 'font') assert.match(r.url, /latin-\d00-normal-[\w-]+\.woff2$/, 'fonts: woff2, latin subset');
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

test('forgot password: from /login, the server says how a reset happens here; a bad reset link is refused', async () => {
  const page = await newPage();
  await page.goto(`${BASE}/login`);
  await page.getByTestId('login-forgot').click();
  await page.waitForURL(/\/forgot-password$/);
  await page.getByTestId('forgot-submit').click();
  await page.getByText('Email is required').waitFor();
  await page.locator('#email').fill(ACCOUNTS.customer.email);
  await page.getByTestId('forgot-submit').click();
  // The test API has no mail set up: the administrators are told instead (tests/api/test_password_reset.py).
  await page.getByTestId('forgot-answer').filter({ hasText: 'Your administrator has been told' }).waitFor();
  await shot(page, 'forgot-password-1440.png');
  await page.goto(`${BASE}/reset-password?token=not-a-real-token`);
  await page.locator('#new-password').fill('fresh-pass-42');
  await page.locator('#confirm-password').fill('fresh-pass-42');
  await page.getByTestId('reset-submit').click();
  await page.getByTestId('reset-error').filter({ hasText: 'invalid, used or expired' }).waitFor();
  await shot(page, 'reset-password-bad-link-1440.png');
  await page.context().close();
});

test('admin: sign in, admin menu and header items (1440)', async () => {
  const page = await newPage(1440);
  await signInUi(page, 'admin');
  assert.deepEqual(await navTitles(page), ADMIN_GROUPS);
  assert.equal(await page.getByTestId('drawer').getAttribute('data-variant'), 'permanent');
  assert.ok(await visible(page, 'drawer-toggle'), 'drawer toggle');
  assert.ok(!(await page.getByTestId('header-balance').count()), 'no balance for admin');
  assert.ok(!(await page.getByTestId('back-to-admin').count()), 'no Back To Admin');
  assert.ok(!(await page.getByTestId('buyer-chip-report').count()), 'no buyer chips');
  await page.waitForFunction(() => /^\d{2}:\d{2}:\d{2} (AM|PM)$/.test(document.querySelector('[data-testid="header-clock"]')?.innerText.trim() || ''));
  assert.match((await textChanges(page.getByTestId('header-clock'), { timeout: 3000 })).trim(), CLOCK, 'clock ticks');
  assert.equal(await page.getByTestId('header-live-calls').getAttribute('href'), '/live-calls');
  assert.match((await page.getByTestId('live-calls-badge').innerText()).trim(), /^\d+$/);
  for (const id of ['header-notifications', 'header-lock', 'header-logout', 'header-profile']) assert.ok(await visible(page, id), id);
  // the Dashboard item is selected on /dashboard
  assert.equal(await page.getByTestId('nav-item-dashboard').getAttribute('aria-current'), 'page');
  // profile menu
  await page.getByTestId('header-profile').click();
  const menu = page.getByTestId('profile-menu');
  await menu.waitFor();
  const user = JSON.parse(sessions.admin.user);
  assert.equal((await page.getByTestId('profile-name').innerText()).trim(), user.name);
  assert.equal((await page.getByTestId('profile-role').innerText()).trim(), user.role_name);
  assert.equal((await menu.getByTestId('user-avatar').innerText()).trim(), user.name.trim().charAt(0).toUpperCase());
  await menu.getByText('Change Password').waitFor();
  await menu.getByText('Logout').waitFor();
  await page.keyboard.press('Escape');
  await page.mouse.click(700, 500);
  await still(page);
  await shot(page, 'admin-1440.png');
  // clicking a menu item routes to the lazy page and selects it
  await page.getByTestId('nav-item-report').click();
  await page.waitForURL(/\/report$/);
  await page.getByTestId('page-title').filter({ hasText: 'Report' }).waitFor();
  assert.equal(await page.getByTestId('nav-item-report').getAttribute('aria-current'), 'page');
  assert.equal(await page.getByTestId('nav-item-dashboard').getAttribute('aria-current'), null);
  await page.context().close();
});

test('customer: sign in, user menu, balance and clock (1440)', async () => {
  const page = await newPage(1440);
  await signInUi(page, 'customer');
  assert.deepEqual(await navTitles(page), USER_GROUPS);
  await page.getByTestId('header-balance').waitFor();
  await page.waitForFunction(() => /\$/.test(document.querySelector('[data-testid="balance-amount"]')?.innerText || ''));
  const user = JSON.parse(sessions.customer.user);
  const low = Number(user.balance) < 50;
  await page.waitForFunction(() => document.querySelector('[data-testid="balance-refresh"]') && !document.querySelector('[data-testid="balance-refresh"]').disabled);
  const amount = page.getByTestId('balance-amount');
  const weight = await amount.evaluate((el) => getComputedStyle(el).fontWeight);
  const anim = await amount.evaluate((el) => getComputedStyle(el).animationName);
  assert.equal((await page.getByTestId('header-balance').getAttribute('data-low')) === 'true', low, 'low-balance flag');
  if (low) {
    assert.equal(weight, '700');
    assert.notEqual(anim, 'none');
  } else assert.equal(anim, 'none');
  await page.getByTestId('balance-refresh').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid="balance-refresh"]').disabled);
  await page.waitForFunction(() => /^\d{2}:\d{2}:\d{2} (AM|PM)$/.test(document.querySelector('[data-testid="header-clock"]')?.innerText.trim() || ''));
  assert.equal(await page.getByTestId('header-clock').getAttribute('data-timezone'), user.timezone || 'UTC');
  assert.ok(await visible(page, 'header-live-calls'));
  assert.ok(!(await page.getByTestId('buyer-chip-report').count()), 'no buyer chips');
  if (ACCOUNTS.customer.name) assert.equal(user.name, ACCOUNTS.customer.name);
  // notification dropdown
  const firstPage = await clickAndAnswer(page, page.getByTestId('header-notifications'), '/notification/notification?');
  const notices = (await firstPage.json()).data.total;
  const dropdown = page.getByTestId('notification-dropdown');
  await dropdown.getByText('Notification', { exact: true }).waitFor();
  await page.waitForFunction(() => !/Loading\.\.\./.test(document.querySelector('[data-testid="notification-list"]')?.innerText || 'Loading...'));
  const list = page.getByTestId('notification-list');
  const count = await list.locator('li').count();
  if (count === 0) await list.getByText('No notifications found!').waitFor();
  else {
    assert.ok(count <= 10, 'first page holds at most 10');
    const maxHeight = await list.evaluate((el) => getComputedStyle(el).maxHeight);
    assert.equal(maxHeight, '300px');
    if (notices > 10) {
      await list.evaluate((el) => el.scrollTo(0, el.scrollHeight)); // the end of the list asks for the next page
      await list.locator('li').nth(10).waitFor();
    }
  }
  await shot(page, 'customer-notifications-1440.png');
  await page.keyboard.press('Escape');
  await page.mouse.click(700, 600);
  await still(page);
  await shot(page, 'customer-1440.png');
  await page.context().close();
});

test('buyer: no sidebar, Report and Target shortcuts only (1440)', async () => {
  const page = await newPage(1440);
  await signInUi(page, 'buyer');
  assert.equal(await page.getByTestId('drawer').count(), 0, 'no drawer');
  assert.equal(await page.getByTestId('drawer-toggle').count(), 0, 'no drawer toggle');
  for (const id of ['header-balance', 'header-clock', 'header-live-calls']) assert.equal(await page.getByTestId(id).count(), 0, `no ${id}`);
  for (const id of ['header-notifications', 'header-lock', 'header-logout', 'header-profile']) assert.ok(await visible(page, id), id);
  await shot(page, 'buyer-1440.png');
  await page.getByTestId('buyer-chip-report').click();
  await page.waitForURL(/\/buyercdr$/);
  await page.getByTestId('page-title').waitFor();
  await page.getByTestId('buyer-chip-target').click();
  await page.waitForURL(/\/buyer-target$/);
  await page.getByTestId('page-title').filter({ hasText: 'Buyer Target' }).waitFor();
  await page.context().close();
});

test('every signed-in route renders its lazy page; unknown path lands on /dashboard', async () => {
  const page = await newPage(1440);
  await signIn(page, 'admin');
  const paths = ['buyercdr', 'report', 'manage-number', 'uploadnumber', 'number', 'manage-trunk', 'campaign', 'target', 'buyer-target', 'block-number', 'buyer', 'ivr', 'user_ivr', 'customer', 'vendor', 'topup', 'tariff', 'rate-card', 'live-calls', 'wallet', 'invoice', 'changepassword', 'profile'];
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
  assert.deepEqual(page.__errors || [], [], 'no page errors');
  await page.context().close();
}, { timeout: 2 * TEST_TIMEOUT }); // 24 full page loads

test('theme toggle persists across reload', async () => {
  const page = await newPage(1440);
  await signIn(page, 'admin');
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const before = (await page.evaluate(() => localStorage.getItem('themeMode'))) || 'dark';
  const bgBefore = await bg();
  await page.getByTestId('header-profile').click();
  await page.getByTestId('theme-toggle').click();
  const after = before === 'dark' ? 'light' : 'dark';
  assert.equal(await page.evaluate(() => localStorage.getItem('themeMode')), after);
  await page.reload();
  await page.getByTestId('page-title').waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('themeMode')), after);
  const bgAfter = await bg();
  assert.notEqual(bgAfter, bgBefore, 'background changed');
  if (after === 'light') await shot(page, 'admin-1440-light.png');
  // toggle back
  await page.getByTestId('header-profile').click();
  await page.getByTestId('theme-toggle').click();
  assert.equal(await page.evaluate(() => localStorage.getItem('themeMode')), before);
  await page.context().close();
});

test('drawer collapse persists across reload (1440)', async () => {
  const page = await newPage(1440);
  await signIn(page, 'admin');
  const drawer = page.getByTestId('drawer');
  assert.equal(await drawer.getAttribute('data-open'), 'true');
  await page.getByTestId('drawer-toggle').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="drawer"]').getAttribute('data-open') === 'false');
  assert.equal(await page.evaluate(() => localStorage.getItem('isDashboardDrawerOpened')), 'false');
  await page.reload();
  await page.getByTestId('page-title').waitFor();
  assert.equal(await page.getByTestId('drawer').getAttribute('data-open'), 'false', 'still collapsed after reload');
  assert.equal(await page.getByTestId('nav-group-title').count(), 0, 'group titles hidden when collapsed');
  await still(page);
  const logo = await page.getByTestId('logo').boundingBox();
  assert.ok(logo && Math.round(logo.width) === 35, `narrow logo (${logo?.width})`);
  const paper = await page.locator('[data-testid="drawer"] .MuiDrawer-paper').boundingBox();
  assert.ok(paper.width < 100, `mini drawer (${paper.width})`);
  await shot(page, 'admin-1440-collapsed.png');
  await page.getByTestId('drawer-toggle').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="drawer"]').getAttribute('data-open') === 'true');
  assert.equal(await page.evaluate(() => localStorage.getItem('isDashboardDrawerOpened')), 'true');
  await page.getByTestId('logo').click();
  await page.waitForURL(new RegExp(`${BASE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/$`));
  await page.context().close();
});

test('impersonate the customer from /customer and go Back To Admin', async () => {
  const page = await newPage(1440);
  await signIn(page, 'admin', '/customer');
  const name = ACCOUNTS.customer.name || JSON.parse(sessions.customer?.user || '{}').name;
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
    user: JSON.parse(localStorage.getItem('user'))
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
    user: JSON.parse(localStorage.getItem('user')),
    token: localStorage.getItem('token')
  }));
  assert.deepEqual(after.keys, [null, null, null]);
  assert.equal(Number(after.user.role), 1);
  assert.equal(after.token, sessions.admin.token, 'admin token restored');
  assert.deepEqual(await navTitles(page), ADMIN_GROUPS, 'admin menu again');
  assert.deepEqual(page.__dialogs || [], [], 'no alert');
  await page.context().close();
});

for (const role of ['admin', 'customer', 'buyer']) {
  test(`${role}: 390 px shows the temporary drawer and the more-menu`, async () => {
    const page = await newPage(390, 844);
    await signIn(page, role);
    await still(page);
    assert.ok(await visible(page, 'header-more'), 'more-menu button');
    assert.equal(await page.getByTestId('header-items').count(), 0, 'items are not inline');
    await shot(page, `${role}-390.png`);
    if (role !== 'buyer') {
      const drawer = page.getByTestId('drawer');
      assert.equal(await drawer.getAttribute('data-variant'), 'temporary');
      assert.equal(await drawer.getAttribute('data-open'), 'false', 'closed below xl');
      await page.getByTestId('drawer-toggle').click();
      await page.getByTestId('nav-item-dashboard').waitFor({ state: 'visible' });
      await still(page);
      await shot(page, `${role}-390-drawer.png`);
      await page.getByTestId('nav-item-report').click();
      await page.waitForURL(/\/report$/);
      await page.waitForFunction(() => document.querySelector('[data-testid="drawer"]').getAttribute('data-open') === 'false');
    } else {
      assert.equal(await page.getByTestId('drawer').count(), 0);
    }
    await page.getByTestId('header-more').click();
    const more = page.getByTestId('more-menu');
    await more.waitFor();
    for (const id of ['header-notifications', 'header-lock', 'header-logout', 'header-profile']) assert.ok(await more.getByTestId(id).isVisible(), `${id} in more-menu`);
    if (role === 'customer') assert.ok(await more.getByTestId('header-balance').isVisible());
    if (role !== 'buyer') assert.ok(await more.getByTestId('header-clock').isVisible());
    if (role === 'buyer') assert.ok(await more.getByTestId('buyer-chip-report').isVisible());
    await more.getByTestId('header-profile').click();
    await page.getByTestId('profile-menu').waitFor();
    assert.ok(await more.isVisible(), 'more-menu stays open under the profile menu');
    await page.getByTestId('profile-menu').getByText('Change Password').click();
    await page.waitForURL(/\/changepassword$/);
    await page.getByTestId('header-more').click();
    await more.waitFor();
    await still(page);
    await shot(page, `${role}-390-more.png`);
    await page.context().close();
  });
}

test('logout clears local storage and returns to /login', async () => {
  const page = await newPage(1440);
  await signInUi(page, 'buyer');
  await page.getByTestId('header-logout').click();
  await page.waitForURL(/\/login$/);
  assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);
  assert.equal(await page.evaluate(() => localStorage.getItem('user')), null);
  await page.context().close();
});

test('customer: name as typed in the header, a fading notice, a searchable timezone, one password error', async () => {
  const page = await newPage(1440);
  await signIn(page, 'customer', '/profile');
  const token = sessions.customer.token;
  const restore = () =>
    fetch(`${BASE}/api/profile`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: ACCOUNTS.customer.name, timezone: 'Europe/Berlin' })
    });
  try {
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('uiwalk-customer');
    const zone = page.getByTestId('profile-timezone');
    await zone.click();
    await zone.fill('new_y');
    await page.getByRole('option', { name: 'America/New_York' }).click();
    assert.equal(await zone.inputValue(), 'America/New_York');
    await page.getByRole('button', { name: 'Save' }).click();
    const notice = page.getByTestId('profile-notice');
    await notice.filter({ hasText: 'Profile saved.' }).waitFor();
    await shot(page, 'profile-saved-1440.png');
    await notice.waitFor({ state: 'detached', timeout: 12000 });
    // No reload: the header shows the new name and clock zone at once.
    const header = page.getByTestId('header-profile');
    await header.filter({ hasText: /uiwalk-customer/i }).waitFor();
    // innerText is the text as rendered, after any CSS text-transform.
    assert.match(await header.innerText(), /(^|\n)uiwalk-customer$/, 'the name as typed');
    assert.equal(await page.getByTestId('header-clock').getAttribute('data-timezone'), 'America/New_York');
  } finally {
    await restore();
  }

  await page.goto(`${BASE}/changepassword`);
  await page.getByLabel('Current Password').fill(`${ACCOUNTS.customer.password}-wrong`);
  await page.getByLabel('New Password', { exact: true }).fill('another1pass');
  await page.getByLabel('Confirm New Password').fill('another1pass');
  await clickAndAnswer(page, page.getByRole('button', { name: 'Change Password' }), '/change-password');
  await page.getByText('The current password is incorrect.').waitFor();
  assert.equal(await page.getByText('The current password is incorrect.').count(), 1, 'said once, on the field');
  assert.equal(await page.getByTestId('change-password-error').count(), 0, 'no banner too');
  await shot(page, 'changepassword-wrong-1440.png');
  await page.context().close();
});

test('admin at 1440x900: the sidebar shows a scroll cue; the report dates show their placeholder whole', async () => {
  const page = await newPage(1440, 900);
  await signIn(page, 'admin', '/report');
  const cue = page.getByTestId('drawer-scroll-cue');
  await cue.waitFor();
  await shot(page, 'sidebar-cue-1440x900.png');
  await cue.click();
  await cue.waitFor({ state: 'detached' });
  assert.ok(await page.getByTestId('nav-item-invoice').isVisible(), 'the last item is reached');
  for (const id of ['report-fromDate', 'report-toDate']) {
    const fits = await page.getByTestId(id).evaluate((el) => ({ width: el.clientWidth, needed: el.scrollWidth }));
    assert.ok(fits.needed <= fits.width, `${id}: ${fits.needed} px of text in ${fits.width} px`);
  }
  await shot(page, 'report-filters-1440x900.png');
  await page.context().close();
});

test('admin: add, check, edit, deactivate and delete a trunk from /manage-trunk', async () => {
  const page = await newPage(1440);
  await signIn(page, 'admin', '/manage-trunk');
  const name = `E2E Carrier ${Date.now() % 100000}`;
  await page.getByTestId('trunk-add').click();
  const dialog = page.getByTestId('trunk-dialog');
  await dialog.getByTestId('trunk-save').click();
  await dialog.getByText('Name is required').waitFor();
  await dialog.getByText('Host is required').waitFor();
  await page.getByTestId('trunk-name').fill(name);
  await page.getByTestId('trunk-host').fill('999.1.1.1'); // the server's check, shown under its field
  await page.getByTestId('trunk-port').fill('5099');
  await dialog.getByTestId('trunk-save').click();
  await dialog.getByText('must be a host name or an IP address').waitFor();
  await page.getByTestId('trunk-host').fill('127.0.0.1');
  await dialog.getByTestId('trunk-save').click();
  await page.getByTestId('trunk-notice').filter({ hasText: `Trunk ${name} created.` }).waitFor();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('textbox', { name: 'Search trunks' }).fill(name);
  const row = page.locator(`[data-testid="trunk-row"][data-name="${name}"]`);
  await cellHas(row, 'Address', 'udp:127.0.0.1:5099');
  assert.equal(await row.getByTestId('trunk-endpoint').innerText(), 'Unknown', 'no bridge here to qualify it');
  // The direction filter: an outbound trunk is not among the inbound ones.
  await page.getByRole('combobox', { name: 'Direction' }).click();
  await page.getByRole('option', { name: 'inbound' }).click();
  await row.waitFor({ state: 'detached' });
  await page.getByRole('combobox', { name: 'Direction' }).click();
  await page.getByRole('option', { name: 'outbound' }).click();
  await row.waitFor();
  await still(page);
  await shot(page, 'trunks-1440.png');

  await row.getByTestId('trunk-edit').click();
  assert.equal(await page.getByTestId('trunk-name').inputValue(), name, 'the dialog starts from the trunk');
  await page.getByTestId('trunk-port').fill('5098');
  await dialog.getByTestId('trunk-save').click();
  await cellHas(row, 'Address', 'udp:127.0.0.1:5098');

  const active = row.getByTestId('trunk-status');
  assert.equal(await active.isChecked(), true);
  await active.click();
  await page.getByTestId('trunk-notice').filter({ hasText: 'is now inactive' }).waitFor();
  await page.reload();
  await page.getByRole('textbox', { name: 'Search trunks' }).fill(name);
  await row.waitFor();
  assert.equal(await row.getByTestId('trunk-status').isChecked(), false, 'inactive after a reload');

  await row.getByTestId('trunk-delete').click();
  await page.getByTestId('confirm-button').click();
  await page.getByTestId('trunk-notice').filter({ hasText: `Trunk ${name} deleted.` }).waitFor();
  await row.waitFor({ state: 'detached' });
  assert.deepEqual(page.__errors || [], [], 'no page errors');
  await page.context().close();
});

test('customer: add, edit, test routing for and delete a campaign on /campaign', async () => {
  const page = await newPage(1440);
  await signIn(page, 'customer', '/campaign');
  const name = `E2E Leads ${Date.now() % 100000}`;
  await page.getByTestId('campaign-add').click();
  const dialog = page.getByTestId('campaign-dialog');
  await page.getByTestId('campaign-name').fill(name);
  await page.getByTestId('campaign-ring_timeout').fill('3');
  await dialog.getByTestId('campaign-save').click();
  await dialog.getByText('Ring timeout must be a whole number from 5 to 300').waitFor();
  await page.getByTestId('campaign-ring_timeout').fill('45');
  await page.getByTestId('campaign-record').check();
  await dialog.getByTestId('campaign-save').click();
  await page.getByTestId('campaign-notice').filter({ hasText: `Campaign ${name} created.` }).waitFor();
  await page.getByRole('textbox', { name: 'Search campaigns' }).fill(name);
  const row = page.locator(`[data-testid="campaign-row"][data-name="${name}"]`);
  await cellHas(row, 'Features', /Recorded/);
  await cellHas(row, 'Ring (s)', '45');

  await row.getByTestId('campaign-edit').click();
  await page.getByTestId('campaign-name').fill(name); // same name: no clash with itself
  await page.getByTestId('campaign-ring_timeout').fill('20');
  await dialog.getByTestId('campaign-save').click();
  await page.getByTestId('campaign-notice').filter({ hasText: `Campaign ${name} saved.` }).waitFor();
  await cellHas(row, 'Ring (s)', '20');

  // No number points at it yet: the dry run says the call would not route, and why.
  await page.getByTestId('dryrun-open').click();
  await page.getByTestId('dryrun-did').fill('+442079460999');
  await page.getByTestId('dryrun-caller').fill('+447700900123');
  await page.getByTestId('dryrun-run').click();
  await page.getByTestId('dryrun-outcome').filter({ hasText: 'NO_ROUTE' }).waitFor();
  assert.match(await page.getByTestId('dryrun-dialog').getByTestId('call-trail').innerText(), /not a number on this platform/);
  await page.getByTestId('dryrun-dialog').getByRole('button', { name: 'Close' }).click();

  await row.getByTestId('campaign-delete').click();
  await page.getByTestId('confirm-button').click();
  await page.getByTestId('campaign-notice').filter({ hasText: `Campaign ${name} deleted.` }).waitFor();
  await row.waitFor({ state: 'detached' });
  assert.deepEqual(page.__errors || [], [], 'no page errors');
  await page.context().close();
});

test("customer: a campaign's whisper, spoken from text with a preview; a file that is no WAV refused", async () => {
  const page = await newPage(1440);
  await signIn(page, 'customer', '/campaign');
  const name = `E2E Whisper ${Date.now() % 100000}`;
  await page.getByTestId('campaign-add').click();
  await page.getByTestId('campaign-name').fill(name);
  await page.getByTestId('campaign-dialog').getByTestId('campaign-save').click();
  await page.getByTestId('campaign-notice').filter({ hasText: `Campaign ${name} created.` }).waitFor();
  await page.getByRole('textbox', { name: 'Search campaigns' }).fill(name);
  const row = page.locator(`[data-testid="campaign-row"][data-name="${name}"]`);

  await row.getByTestId('campaign-whisper').click();
  const dialog = page.getByTestId('whisper-dialog');
  await dialog.getByTestId('whisper-summary').filter({ hasText: 'No whisper' }).waitFor();
  await page.getByTestId('whisper-mode-text').check();
  await page.getByTestId('whisper-text').fill('Call from campaign Acme Roofing');
  await dialog.getByTestId('whisper-save').click();
  await page.getByTestId('campaign-notice').filter({ hasText: 'Whisper saved. The target hears “Call from campaign Acme Roofing”' }).waitFor();

  // Open again: what the target will hear, spoken by the server, plays in the page (a real WAV).
  await row.getByTestId('campaign-whisper').click();
  await dialog.getByTestId('whisper-summary').filter({ hasText: 'talk time starts after it' }).waitFor();
  const preview = dialog.getByTestId('whisper-preview');
  await page.waitForFunction((el) => el.duration > 1 && el.duration < 5, await preview.elementHandle());

  // A file that is no WAV: the server says why, and the spoken whisper stays.
  await page.getByTestId('whisper-mode-recording').check();
  await page.getByTestId('whisper-file').setInputFiles({ name: 'notes.wav', mimeType: 'audio/wav', buffer: Buffer.from('not audio at all') });
  await dialog.getByTestId('whisper-save').click();
  await dialog.getByText(/not a PCM WAV file/).waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  const listed = await api('customer', 'GET', `/campaign/details?params=${encodeURIComponent(name)}`);
  const stored = await api('customer', 'GET', `/campaign/whisper/${listed.body.data.data[0].id}`);
  assert.equal(stored.body.data.mode, 'text');
  assert.deepEqual(page.__errors || [], [], 'no page errors');
  await page.context().close();
});

test('customer: a target with open hours, assigned to a campaign in order, then removed', async () => {
  const page = await newPage(1440);
  await signIn(page, 'customer', '/target');
  const stamp = Date.now() % 100000;
  const name = `E2E Desk ${stamp}`;
  await page.getByTestId('target-add').click();
  const dialog = page.getByTestId('target-dialog');
  await dialog.getByTestId('target-save').click();
  await dialog.getByText('Buyer is required').waitFor();
  await page.getByTestId('target-name').fill(name);
  await dialog.getByRole('combobox', { name: 'Buyer' }).click();
  await page.getByRole('option', { name: 'Bea Buyer' }).click();
  await page.getByTestId('target-destination').fill('12'); // the server's check, under its field
  await page.getByTestId('target-concurrency_cap').fill('2');
  await page.getByTestId('target-payout').fill('12.50');
  await page.getByTestId('target-always_open').uncheck();
  await page.getByTestId('target-hours-mon').fill('9:00-12:00, 13:00-17:30');
  await page.getByTestId('target-hours-sat').fill('10:00 to 14:00');
  await dialog.getByTestId('target-save').click();
  await dialog.getByText('"10:00 to 14:00" is not a window like 09:00-17:00').waitFor();
  await page.getByTestId('target-hours-sat').fill('10:00-14:00');
  await page.getByTestId('target-timezone').fill('America/Chic');
  await page.getByRole('option', { name: 'America/Chicago' }).click();
  await dialog.getByTestId('target-save').click();
  await dialog.getByText(/use an E\.164 number such as/).waitFor();
  await page.getByTestId('target-destination').fill('+1 415 555 0100');
  await dialog.getByTestId('target-save').click();
  await page.getByTestId('target-notice').filter({ hasText: `Target ${name} created.` }).waitFor();
  await page.getByRole('textbox', { name: 'Search targets' }).fill(name);
  const row = page.locator(`[data-testid="target-row"][data-name="${name}"]`);
  await cellHas(row, 'Destination', '+14155550100');
  assert.equal(await row.getByTestId('target-hours').innerText(), 'Mon 09:00-12:00, 13:00-17:30; Sat 10:00-14:00 (America/Chicago)');
  assert.equal(await row.getByTestId('target-caps').innerText(), '2 at once');
  await cellHas(row, 'Buyer', 'Bea Buyer');
  await cellHas(row, 'Payout', '$12.50');
  await shot(page, 'targets-1440.png');

  await row.getByTestId('target-edit').click();
  assert.equal(await page.getByTestId('target-hours-mon').inputValue(), '09:00-12:00, 13:00-17:30', 'the dialog starts from the target');
  await page.getByTestId('target-concurrency_cap').fill('');
  await page.getByTestId('target-daily_cap').fill('50');
  await page.getByTestId('target-always_open').check();
  await dialog.getByTestId('target-save').click();
  await page.getByTestId('target-notice').filter({ hasText: `Target ${name} saved.` }).waitFor();
  await row.getByTestId('target-hours').filter({ hasText: 'Always open' }).waitFor();
  assert.equal(await row.getByTestId('target-caps').innerText(), '50/day');

  // The campaign's targets: assign the new one second in line, reorder it, remove it.
  const campaign = `E2E Routed ${stamp}`;
  await page.goto(`${BASE}/campaign`);
  await page.getByTestId('campaign-add').click();
  await page.getByTestId('campaign-name').fill(campaign);
  await page.getByTestId('campaign-dialog').getByTestId('campaign-save').click();
  await page.getByTestId('campaign-notice').filter({ hasText: `Campaign ${campaign} created.` }).waitFor();
  await page.getByRole('textbox', { name: 'Search campaigns' }).fill(campaign);
  const crow = page.locator(`[data-testid="campaign-row"][data-name="${campaign}"]`);
  await crow.getByTestId('campaign-targets').click();
  const links = page.getByTestId('links-dialog');
  await links.getByText('No targets yet').waitFor();
  await links.getByRole('combobox', { name: 'Assign a target' }).click();
  await page.getByRole('option', { name: `${name} (+14155550100)` }).click();
  await links.getByTestId('links-new-priority').fill('0');
  await links.getByTestId('links-add').click();
  await links.getByTestId('links-error').filter({ hasText: 'Priority must be a whole number from 1 to 100' }).waitFor();
  await links.getByTestId('links-new-priority').fill('2');
  await links.getByTestId('links-new-weight').fill('30');
  await links.getByTestId('links-add').click();
  await links.getByTestId('links-notice').filter({ hasText: `${name} now takes this campaign's calls.` }).waitFor();
  const link = links.locator(`[data-testid="links-row"][data-name="${name}"]`);
  assert.equal(await link.getByTestId('links-priority').inputValue(), '2');
  assert.equal(await link.getByTestId('links-weight').inputValue(), '30');
  await link.getByTestId('links-priority').fill('1');
  await link.getByTestId('links-save').click();
  await links.getByTestId('links-notice').filter({ hasText: `${name}: priority 1, weight 30.` }).waitFor();
  await links.getByRole('button', { name: 'Close' }).click();
  await crow.getByTestId('campaign-targets').click();
  assert.equal(await link.getByTestId('links-priority').inputValue(), '1', 'the order was saved');
  await still(page);
  await shot(page, 'campaign-targets-1440.png');
  await link.getByTestId('links-remove').click();
  await links.getByText('No targets yet').waitFor();
  await links.getByRole('button', { name: 'Close' }).click();

  await page.goto(`${BASE}/target`);
  await page.getByRole('textbox', { name: 'Search targets' }).fill(name);
  await row.getByTestId('target-status').click();
  await page.getByTestId('target-notice').filter({ hasText: `Target ${name} is now inactive.` }).waitFor();
  await row.getByTestId('target-delete').click();
  await page.getByTestId('confirm-button').click();
  await page.getByTestId('target-notice').filter({ hasText: `Target ${name} deleted.` }).waitFor();
  await row.waitFor({ state: 'detached' });
  assert.deepEqual(page.__errors || [], [], 'no page errors');
  await page.context().close();
});

test('numbers: the admin fills the pool, the customer takes one and points it at a campaign', async () => {
  const stamp = Date.now() % 10000;
  const digits = (n) => String(n % 10000).padStart(4, '0');
  const [paid, free] = [`+44207946${digits(stamp)}`, `+44207946${digits(stamp + 1)}`];
  const admin = await newPage(1440);
  await signIn(admin, 'admin', '/manage-number');
  for (const [number, fee] of [
    [paid, '5'],
    [free, '0']
  ]) {
    await admin.getByTestId('number-add').click();
    await admin.getByTestId('number-number').fill(number.replace('+44', '+44 '));
    await admin.getByTestId('number-setup_fee').fill(fee);
    await admin.getByTestId('number-monthly_fee').fill('1.5');
    await admin.getByTestId('number-dialog').getByTestId('number-save').click();
    await admin.getByTestId('number-notice').filter({ hasText: `Number ${number} added to the pool.` }).waitFor();
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
  await page.getByTestId('campaign-notice').filter({ hasText: `Campaign ${campaign} created.` }).waitFor();
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
  assert.equal(await page.locator(`[data-testid="number-row"][data-number="${paid}"]`).count(), 0, 'the unpaid number stayed in the pool');
  await row.getByRole('combobox').click();
  await page.getByRole('option', { name: campaign }).click();
  await page.getByTestId('number-notice').filter({ hasText: `Calls to ${free} now go to campaign ${campaign}.` }).waitFor();
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
  await admin.getByTestId('number-notice').filter({ hasText: `Number ${free} is now suspended.` }).waitFor();
  await adminRow.getByTestId('number-release').click();
  await admin.getByTestId('confirm-button').click();
  await admin.getByTestId('number-notice').filter({ hasText: '1 number(s) released to the pool.' }).waitFor();
  await adminRow.getByTestId('number-customer').filter({ hasText: 'Pool' }).waitFor();

  await page.reload();
  await row.waitFor({ state: 'detached' });
  assert.deepEqual([...(page.__errors || []), ...(admin.__errors || [])], [], 'no page errors');
  await page.context().close();
  await admin.context().close();
});

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
  await page.getByTestId('buyer-notice').filter({ hasText: `Buyer ${name} created.` }).waitFor();
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
  assert.equal(JSON.parse(await buyer.evaluate(() => localStorage.getItem('user'))).role, 3, 'signed in as a buyer');
  await buyer.context().close();

  await row.getByTestId('buyer-status').click();
  await page.getByTestId('buyer-notice').filter({ hasText: `Buyer ${name} is now inactive.` }).waitFor();
  const refused = await signInAs();
  await refused.getByRole('alert').waitFor();
  assert.match(refused.url(), /\/login$/);
  await refused.context().close();

  await row.getByTestId('buyer-delete').click();
  await page.getByTestId('confirm-button').click();
  await page.getByTestId('buyer-notice').filter({ hasText: `Buyer ${name} deleted.` }).waitFor();
  await row.waitFor({ state: 'detached' });
  assert.deepEqual(page.__errors || [], [], 'no page errors');
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
    if (attempt === 1) await page.getByTestId('block-notice').filter({ hasText: `${caller} blocked.` }).waitFor();
  }
  await page.getByTestId('block-dialog').getByText(`${caller} is already blocked.`).waitFor();
  await page.getByTestId('block-dialog').getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('textbox', { name: 'Search blocks' }).fill(caller);
  const row = page.locator(`[data-testid="block-row"][data-pattern="${caller}"]`);
  await cellHas(row, 'Match', 'This number');
  await cellHas(row, 'Covers', 'Your calls');
  await cellHas(row, 'Reason', 'Robocaller');
  await row.getByTestId('block-status').click();
  await page.getByTestId('block-notice').filter({ hasText: `Block ${caller} is now inactive.` }).waitFor();
  await row.getByTestId('block-delete').click();
  await page.getByTestId('confirm-button').click();
  await page.getByTestId('block-notice').filter({ hasText: `Block ${caller} deleted.` }).waitFor();
  await row.waitFor({ state: 'detached' });
  assert.deepEqual(page.__errors || [], [], 'no page errors');
  await page.context().close();
});

// ---------------------------------------------------------------- billing screens (tariff, rate card, top-up, wallet, invoice)
/** A call to the API as `role` (signed in already): `{status, body}`, to check what a screen did. */
async function api(role, method, path, body) {
  const response = await fetch(`${BASE}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${sessions[role].token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body)
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

const billingStamp = Date.now() % 100000;
// A customer of the billing scenarios' own, so the other scenarios' wallets stay as they expect.
const PAYER = { name: `E2E Payer ${billingStamp}`, email: `e2e.payer.${billingStamp}@example.com`, password: 'payerpass1' };

ACCOUNTS.payer = PAYER; // signIn(page, 'payer', path) once it exists

/** Create PAYER through the API once (the admin signed in); its id. */
async function payerId() {
  if (!PAYER.id) {
    const made = await api('admin', 'POST', '/user/add', { name: PAYER.name, email: PAYER.email, password: PAYER.password });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    PAYER.id = made.body.data.id;
  }
  return PAYER.id;
}

/** Click `button` and read the file it downloads, as text (or bytes with `binary`). */
async function downloaded(page, button, { binary = false } = {}) {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const { readFile } = await import('node:fs/promises');
  const data = await readFile(await download.path());
  return { name: download.suggestedFilename(), data: binary ? data : data.toString('utf8') };
}

/** Pick `name` in the searchable name picker whose input has test id `testid`. */
async function pick(page, testid, name) {
  await page.getByTestId(testid).fill(name);
  await page.getByRole('option', { name: new RegExp(`^${name}`) }).first().click();
}

test('admin: a tariff and its rate card: add, edit, rates by hand and by CSV, export, delete', async () => {
  const page = await newPage(1440);
  await signIn(page, 'admin', '/tariff');
  const name = `E2E Tariff ${billingStamp}`;
  await page.getByTestId('tariff-add').click();
  const dialog = page.getByTestId('tariff-dialog');
  await page.getByTestId('tariff-currency').fill('euro');
  await dialog.getByTestId('tariff-save').click();
  await dialog.getByText('Name is required').waitFor();
  await dialog.getByText('A three-letter currency code, such as USD or EUR').waitFor();
  await page.getByTestId('tariff-name').fill(name);
  await page.getByTestId('tariff-currency').fill('eur');
  await dialog.getByTestId('tariff-save').click();
  await page.getByTestId('tariff-notice').filter({ hasText: `Tariff ${name} created.` }).waitFor();
  await page.getByRole('textbox', { name: 'Search tariffs' }).fill(name);
  const row = page.locator(`[data-testid="tariff-row"][data-name="${name}"]`);
  await cellHas(row, 'Currency', 'EUR');
  await row.getByTestId('tariff-edit').click();
  await page.getByTestId('tariff-description').fill('Wholesale, from the E2E run');
  await dialog.getByTestId('tariff-save').click();
  await cellHas(row, 'Description', 'Wholesale, from the E2E run');
  const saved = await api('admin', 'GET', `/tariff/details?params=${encodeURIComponent(name)}`);
  const tariff = saved.body.data.data[0];
  assert.deepEqual([tariff.currency, tariff.description], ['EUR', 'Wholesale, from the E2E run'], 'the API has what the screen saved');

  // Opening the tariff shows its rates: one by hand...
  await row.getByTestId('tariff-open').click();
  await page.waitForURL(new RegExp(`/rate-card\\?tariff=${tariff.id}$`));
  await page.getByText(`Rates of ${name} (EUR)`).waitFor();
  await page.getByTestId('rate-add').click();
  const rateDialog = page.getByTestId('rate-dialog');
  await page.getByTestId('rate-prefix').fill('020');
  await page.getByTestId('rate-rate_per_minute').fill('0.0125');
  await rateDialog.getByTestId('rate-save').click();
  await rateDialog.getByText('Prefix: up to 15 digits starting with a country code, e.g. 4420').waitFor();
  await page.getByTestId('rate-prefix').fill('+4420');
  await page.getByTestId('rate-effective_from').fill('2026-01-01');
  await rateDialog.getByTestId('rate-save').click();
  await page.getByTestId('rate-notice').filter({ hasText: 'Rate 4420 added.' }).waitFor();
  const london = page.locator('[data-testid="rate-row"][data-prefix="4420"]');
  await cellHas(london, 'Per minute', '€0.0125');
  await cellHas(london, 'Country', 'GB');
  await cellHas(london, 'From (UTC)', '2026-01-01 00:00');

  // ...then a card by CSV: a bad line refuses the file (nothing imported), the fixed file loads.
  await page.getByTestId('rate-import').click();
  const importer = page.getByTestId('import-dialog');
  const card = (third) => ({ name: 'card.csv', mimeType: 'text/csv', buffer: Buffer.from(`prefix,rate,connection_fee\n33,0.02,0\n${third}\n49,0.03,0.01\n`) });
  await page.getByTestId('import-file').setInputFiles(card('1415,abc,0'));
  await importer.getByTestId('import-upload').click();
  await importer.getByTestId('import-refusal').filter({ hasText: 'Nothing was imported' }).waitFor();
  assert.match(await importer.locator('[data-testid="import-line"][data-line="3"]').innerText(), /rate must be a number/);
  assert.equal((await api('admin', 'GET', `/rate/by/${tariff.id}`)).body.data.total, 1, 'a refused file adds nothing');
  await page.getByTestId('import-file').setInputFiles(card('1415,0.0085,0'));
  await importer.getByTestId('import-upload').click();
  await importer.getByTestId('import-result').filter({ hasText: '3 rates imported. 3 new, 0 replaced' }).waitFor();
  await still(page);
  await shot(page, 'rate-import-1440.png');
  await importer.getByRole('button', { name: 'Close' }).click();
  await page.locator('[data-testid="rate-row"][data-prefix="1415"]').waitFor();
  assert.equal((await api('admin', 'GET', `/rate/by/${tariff.id}`)).body.data.total, 4, 'the API has the imported rates');

  const exported = await downloaded(page, page.getByTestId('rate-export'));
  const lines = exported.data.trim().split('\r\n');
  assert.equal(lines[0], 'prefix,country,rate,connection_fee,initial_increment,billing_increment,min_duration,effective_from');
  assert.equal(lines.length, 5, 'the header and the four rates');
  assert.ok(lines.some((l) => l.startsWith('4420,GB,0.0125,0.0000,60,60,0,2026-01-01T00:00:00')), exported.data);
  await still(page);
  await shot(page, 'rate-card-1440.png');

  await page.getByRole('textbox', { name: 'Search prefixes' }).fill('49');
  const berlin = page.locator('[data-testid="rate-row"][data-prefix="49"]');
  await cellHas(berlin, 'Connect fee', '€0.01');
  await berlin.getByTestId('rate-status').click();
  await page.getByTestId('rate-notice').filter({ hasText: 'Rate 49 is now inactive.' }).waitFor();
  await berlin.getByTestId('rate-delete').click();
  await page.getByTestId('confirm-button').click();
  await page.getByTestId('rate-notice').filter({ hasText: 'Rate 49 deleted.' }).waitFor();
  assert.equal((await api('admin', 'GET', `/rate/by/${tariff.id}`)).body.data.total, 3);

  // No customer uses it, so it can be deleted, with its rates.
  await page.goto(`${BASE}/tariff`);
  await page.getByRole('textbox', { name: 'Search tariffs' }).fill(name);
  await row.getByTestId('tariff-customers-open').click();
  await page.getByTestId('tariff-customers').getByText('No customer uses this tariff.').waitFor();
  await page.getByTestId('tariff-customers').getByRole('button', { name: 'Close' }).click();
  await still(page);
  await shot(page, 'tariffs-1440.png');
  await row.getByTestId('tariff-delete').click();
  await page.getByTestId('confirm-button').click();
  await page.getByTestId('tariff-notice').filter({ hasText: `Tariff ${name} deleted.` }).waitFor();
  assert.equal((await api('admin', 'GET', `/tariff/details?params=${encodeURIComponent(name)}`)).body.data.total, 0);
  assert.deepEqual(page.__errors || [], [], 'no page errors');
  await page.context().close();
});

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
  await page.getByTestId('topup-amount').fill('75.5');
  const reference = `e2e-${billingStamp}`;
  await page.getByTestId('topup-reference').fill(reference);
  await page.getByTestId('topup-note').fill('Bank transfer');
  await page.getByTestId('topup-send').click();
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
  await outcome.filter({ hasText: 'Already credited' }).waitFor();
  assert.equal(await outcome.getByTestId('topup-balance').innerText(), '$75.50');
  const balance = await api('admin', 'GET', `/user/balance/${id}`);
  assert.equal(balance.body.data[0].balance, '75.5000', 'credited once');
  await still(page);
  await shot(page, 'topup-1440.png');
  assert.deepEqual(page.__errors || [], [], 'no page errors');
  await page.context().close();
});

test('customer: the wallet shows each payment with the balance after it, totals, CSV; the header follows a top-up', async () => {
  const admin = await newPage(1440);
  await signIn(admin, 'admin', '/dashboard');
  const id = await payerId();
  await api('admin', 'POST', '/topup/add', { user_id: id, amount: '10', note: 'Welcome credit', reference: `e2e-w-${billingStamp}` });
  await admin.context().close();
  const page = await newPage(1440);
  await signIn(page, 'payer');
  const before = (await api('payer', 'GET', `/user/balance/${id}`)).body.data[0].balance;
  await page.getByTestId('balance-amount').filter({ hasText: `$${Number(before).toFixed(2)}` }).waitFor();
  // A customer with no calls yet: the chart says so rather than drawing empty axes.
  assert.equal(await page.getByTestId('stat-calls-value').innerText(), '0');
  await page.getByTestId('dashboard-chart-empty').filter({ hasText: 'No calls in this period.' }).waitFor();
  // Money arrives while the customer is signed in: opening the wallet shows it in the header too.
  await api('admin', 'POST', '/topup/add', { user_id: id, amount: '20', note: 'Second credit', reference: `e2e-w2-${billingStamp}` });
  await page.getByTestId('nav-item-wallet').first().click();
  await page.getByTestId('page-title').filter({ hasText: 'Wallet' }).waitFor();
  await page.getByTestId('balance-amount').filter({ hasText: `$${(Number(before) + 20).toFixed(2)}` }).waitFor();
  const second = page.locator(`[data-testid="wallet-row"][data-reference="e2e-w2-${billingStamp}"]`);
  await cellHas(second, 'Type', 'Top-up');
  await cellHas(second, 'Amount', '+$20.00');
  await cellHas(second, 'Balance after', `$${(Number(before) + 20).toFixed(2)}`);
  assert.equal(await page.locator('[data-testid="wallet-table"] thead th', { hasText: 'Customer' }).count(), 0, 'a customer sees only its own');
  await page.getByTestId('wallet-credits').filter({ hasText: `$${(Number(before) + 20).toFixed(2)}` }).waitFor();

  await page.getByTestId('wallet-description').fill('Second');
  await page.getByTestId('wallet-search').click();
  await page.getByTestId('wallet-net').filter({ hasText: '$20.00' }).waitFor();
  assert.equal(await page.getByTestId('wallet-row').count(), 1);
  const csv = await downloaded(page, page.getByTestId('wallet-export'));
  assert.match(csv.data, /^date,type,description,reference,amount,balance_after\r\n/);
  assert.ok(csv.data.includes(`,topup,Second credit,e2e-w2-${billingStamp},20.0000,`), csv.data);
  await still(page);
  await shot(page, 'wallet-customer-1440.png');
  await page.getByTestId('wallet-tab-numbers').click();
  await page.getByTestId('numberpay-table').getByText('No payments in this period.').waitFor();
  // Money moved elsewhere, nothing done on this page: the live feed pushes the new balance (a call
  // rated after it ends takes the same path).
  await api('admin', 'POST', '/topup/add', { user_id: id, amount: '5', note: 'Third credit', reference: `e2e-w3-${billingStamp}` });
  await page.getByTestId('balance-amount').filter({ hasText: `$${(Number(before) + 25).toFixed(2)}` }).waitFor({ timeout: 25000 });
  assert.deepEqual(page.__errors || [], [], 'no page errors');
  await page.context().close();
});

test('admin: the wallet of every customer, filtered by customer and type, and the number payments tab', async () => {
  const page = await newPage(1440);
  await signIn(page, 'admin');
  const id = await payerId();
  await page.goto(`${BASE}/wallet`);
  await api('admin', 'POST', '/topup/add', { user_id: id, amount: '5', note: 'Admin view credit', reference: `e2e-a-${billingStamp}` });
  await pick(page, 'wallet-user_id', PAYER.name);
  await page.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Top-up' }).click();
  await page.getByTestId('wallet-search').click();
  const row = page.locator(`[data-testid="wallet-row"][data-reference="e2e-a-${billingStamp}"]`);
  await cellHas(row, 'Customer', PAYER.name);
  await cellHas(row, 'Description', 'Admin view credit');
  const listed = (await api('admin', 'GET', `/user/wall?user_id=${id}&transaction_type=topup&perpage=100`)).body.data.total;
  assert.equal(await page.getByTestId('wallet-row').count(), listed, 'the rows the API has for that filter');
  await still(page);
  await shot(page, 'wallet-admin-1440.png');
  await page.getByTestId('wallet-tab-numbers').click();
  await page.getByTestId('numberpay-table').waitFor();
  await page.getByRole('combobox', { name: 'Fee' }).click();
  await page.getByRole('option', { name: 'Setup fee' }).click();
  await page.getByTestId('numberpay-search').click();
  const setups = (await api('admin', 'GET', '/number/ct?payment_type=setup&perpage=100')).body.data.total;
  if (setups === 0) await page.getByTestId('numberpay-table').getByText('No payments in this period.').waitFor();
  else await page.locator('[data-testid="numberpay-row"]').first().waitFor();
  assert.deepEqual(page.__errors || [], [], 'no page errors');
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
  await page.getByTestId('invoice-notice').filter({ hasText: /Invoice .* issued\.|already issued/ }).waitFor();
  const made = (await api('admin', 'GET', `/invoice/details?user_id=${id}`)).body.data.data;
  assert.equal(made.length, 1, 'the API has the invoice');
  const row = page.locator(`[data-testid="invoice-row"][data-number="${made[0].number}"]`);
  await cellHas(row, 'Customer', PAYER.name);
  await cellHas(row, 'Total', '$0.00');
  await row.getByTestId('invoice-open').click();
  const detail = page.getByTestId('invoice-detail');
  await detail.getByTestId('invoice-period').filter({ hasText: `${made[0].period_start} to ${made[0].period_end}` }).waitFor();
  await still(page);
  await shot(page, 'invoice-detail-1440.png');
  const pdf = await downloaded(page, detail.getByTestId('invoice-detail-pdf'), { binary: true });
  assert.equal(pdf.name, `${made[0].number}.pdf`);
  assert.equal(pdf.data.subarray(0, 5).toString(), '%PDF-');
  assert.deepEqual(page.__errors || [], [], 'no page errors');
  await page.context().close();
});

test('customer: its invoices, one opened, its PDF downloaded', async () => {
  const admin = await newPage(1440);
  await signIn(admin, 'admin', '/dashboard');
  const id = await payerId();
  const month = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  const made = await api('admin', 'POST', '/invoice/generate', { user_id: id, month });
  assert.ok([200, 201].includes(made.status), JSON.stringify(made.body));
  await admin.context().close();
  const page = await newPage(1440);
  await signIn(page, 'payer', '/invoice');
  const number = made.body.data.number;
  const row = page.locator(`[data-testid="invoice-row"][data-number="${number}"]`);
  await cellHas(row, 'Status', 'issued');
  assert.equal(await page.locator('[data-testid="invoice-table"] thead th', { hasText: 'Customer' }).count(), 0);
  assert.equal(await page.getByTestId('invoice-generate').count(), 0, 'a customer has no "Invoice a month"');
  const pdf = await downloaded(page, row.getByTestId('invoice-pdf'), { binary: true });
  assert.equal(pdf.data.subarray(0, 5).toString(), '%PDF-');
  await row.getByTestId('invoice-open').click();
  await page.getByTestId('invoice-detail').getByTestId('invoice-total-charges').filter({ hasText: '$0.00' }).waitFor();
  await still(page);
  await shot(page, 'invoice-customer-1440.png');
  assert.deepEqual(page.__errors || [], [], 'no page errors');
  await page.context().close();
});
test('admin: a 100,000-line rate card imports, its progress shown', async () => {
  const page = await newPage(1440);
  await signIn(page, 'admin');
  const made = await api('admin', 'POST', '/tariff/add', { name: `E2E Big Card ${billingStamp}`, currency: 'USD' });
  const id = made.body.data.id;
  const lines = ['prefix,rate'];
  for (let i = 0; i < 100000; i += 1) lines.push(`1${String(i).padStart(6, '0')},0.0${(i % 90) + 10}`);
  await page.goto(`${BASE}/rate-card?tariff=${id}`);
  await page.getByText(`Rates of E2E Big Card ${billingStamp} (USD)`).waitFor();
  await page.getByTestId('rate-import').click();
  const importer = page.getByTestId('import-dialog');
  await page.getByTestId('import-file').setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await importer.getByTestId('import-upload').click();
  await importer.getByTestId('import-progress').waitFor();
  await importer.getByTestId('import-result').filter({ hasText: '100000 rates imported.' }).waitFor({ timeout: 90000 });
  assert.equal((await api('admin', 'GET', `/rate/by/${id}?perpage=1`)).body.data.total, 100000, 'the API has every line');
  await importer.getByRole('button', { name: 'Close' }).click();
  await page.getByText(/^1–10 of 100,?000$/).waitFor(); // the list pages through them
  assert.equal((await api('admin', 'DELETE', `/tariff/${id}`)).status, 200);
  assert.deepEqual(page.__errors || [], [], 'no page errors');
  await page.context().close();
}, { timeout: 2 * TEST_TIMEOUT });
// ---------------------------------------------------------------- end of billing screens

// The operations screens (users, vendors, number uploads, the buyer's targets, IVR Auth): e2e/operations.mjs.
registerOperationScenarios({ test, newPage, signIn, signInUi, sessions, shot, BASE, customerName: ACCOUNTS.customer.name });
// A target's real-time bidding settings: e2e/bidding.mjs.
registerBiddingScenario({ test, newPage, signIn, sessions, shot, BASE });

// The caller-region settings (targets, campaigns, the dashboard's regions): e2e/regions.mjs.
registerRegionScenarios({ test, newPage, signIn, sessions, shot, BASE });
// Call webhooks on a campaign: e2e/webhooks.mjs.
registerWebhookScenarios({ test, newPage, signIn, sessions, shot, BASE });

// With E2E_CALL_TARGET_PORT and E2E_CALL_CALLER set, the platform set up in the browser takes a real call: e2e/real-call.mjs.
registerRealCall({ test, newPage, signInUi, ACCOUNTS, cell, cellHas, shot, pick, downloaded });

// With E2E_LIVE_CALLER set, a real call from that number is up (tests/asterisk starts it): the
// customer sees it on /live-calls, talking, and hangs it up from there.
if (process.env.E2E_LIVE_CALLER) {
  test('customer: a real call shows on /live-calls and is hung up from there', async () => {
    const caller = process.env.E2E_LIVE_CALLER;
    const page = await newPage(1440);
    await signIn(page, 'customer', '/live-calls');
    const row = page.locator(`[data-testid="live-row"][data-caller="${caller}"]`);
    await row.and(page.locator('[data-state="connected"]')).waitFor({ timeout: 20000 });
    assert.match(await row.innerText(), new RegExp(process.env.E2E_LIVE_TARGET || 'Talking'));
    await textChanges(row.getByTestId('live-duration'), { timeout: 3000 }); // the duration ticks
    assert.equal((await page.getByTestId('live-calls-badge').first().innerText()).trim(), '1', 'header badge counts it');
    await shot(page, 'live-calls-1440.png');
    await row.getByTestId('live-hangup').click();
    await page.getByTestId('confirm-button').click();
    await page.getByTestId('live-notice').filter({ hasText: `Call from ${caller} hung up.` }).waitFor();
    await row.waitFor({ state: 'detached' }); // the socket pushed the end
    await page.getByText('No calls in progress.').waitFor();
    assert.deepEqual(page.__errors || [], [], 'no page errors');
    await page.context().close();
  });
}

// After the live-calls test above: the call it hung up is in the report, opened with its trail.
if (process.env.E2E_LIVE_CALLER) {
  test('customer: that real call is in /report, with its routing trail', async () => {
    const caller = process.env.E2E_LIVE_CALLER;
    const page = await newPage(1440);
    await signIn(page, 'customer', '/report');
    await page.getByTestId('report-caller_number').fill(caller); // numbers match how they start
    const row = page.locator(`[data-testid="report-row"][data-caller="${caller}"]`);
    // The bridge writes the call's end a moment after the hang-up: search until it is there.
    const search = () => clickAndAnswer(page, page.getByTestId('report-search'), '/report?');
    await refreshUntil((timeout) => cellHas(row, 'Hung up by', 'portal', { timeout }), search);
    await cellHas(row, 'Disposition', 'ANSWERED');
    await row.click();
    const detail = page.getByTestId('call-detail');
    assert.equal(await detail.getByTestId('call-detail-disposition').innerText(), 'ANSWERED');
    const dial = detail.locator('[data-testid="trail-entry"][data-step="dial"]').last();
    assert.match(await dial.innerText(), /ANSWER[\s\S]*(Target 0|target)/i);
    assert.ok((await detail.locator('[data-testid="trail-entry"]').count()) >= 3, 'route, selection and dial at least');
    if (process.env.E2E_LIVE_RECORDED) {
      // The campaign records: the recording plays in the page, as long as the talk.
      await detail.getByTestId('call-recording-play').click();
      const audio = detail.getByTestId('call-recording');
      await audio.waitFor();
      const seconds = await audio.evaluate(
        (el) => new Promise((resolve) => (el.readyState >= 1 ? resolve(el.duration) : el.addEventListener('loadedmetadata', () => resolve(el.duration), { once: true })))
      );
      assert.ok(seconds >= 1, `a recording of ${seconds} s`);
    }
    await shot(page, 'report-detail-1440.png');
    assert.deepEqual(page.__errors || [], [], 'no page errors');
    await page.context().close();
  });
}

// The same call as its buyer sees it: on /buyercdr, with its target, and the recording playing.
if (process.env.E2E_LIVE_CALLER && process.env.E2E_LIVE_RECORDED) {
  test('buyer: that real call is in /buyercdr, its recording playing', async () => {
    const page = await newPage(1440);
    await signIn(page, 'buyer', '/buyercdr');
    const row = page.locator(`[data-testid="buyercdr-row"][data-caller="${process.env.E2E_LIVE_CALLER}"]`);
    await row.waitFor();
    assert.match(await row.innerText(), new RegExp(`ANSWERED[\\s\\S]*${process.env.E2E_LIVE_TARGET || ''}|${process.env.E2E_LIVE_TARGET || ''}[\\s\\S]*ANSWERED`));
    await row.getByTestId('call-recording-play').click();
    const seconds = await row.getByTestId('call-recording').evaluate(
      (el) => new Promise((resolve) => (el.readyState >= 1 ? resolve(el.duration) : el.addEventListener('loadedmetadata', () => resolve(el.duration), { once: true })))
    );
    assert.ok(seconds >= 1, `a recording of ${seconds} s`);
    await shot(page, 'buyercdr-1440.png');
    assert.deepEqual(page.__errors || [], [], 'no page errors');
    await page.context().close();
  });
}

// The tracking number of that real call, tested on /campaign: the dry run names its target.
if (process.env.E2E_LIVE_DID) {
  test('customer: test routing for the real tracking number names the target it rings', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/campaign');
    await page.getByTestId('dryrun-open').click();
    await page.getByTestId('dryrun-did').fill(process.env.E2E_LIVE_DID);
    await page.getByTestId('dryrun-caller').fill('+447700900555');
    await page.getByTestId('dryrun-run').click();
    const first = page.getByTestId('dryrun-candidate').first();
    await first.waitFor();
    assert.match(await first.innerText(), new RegExp(process.env.E2E_LIVE_TARGET || '.'));
    assert.match(await page.getByTestId('dryrun-outcome').innerText(), /would be dialled/);
    await shot(page, 'dryrun-1440.png');
    await page.context().close();
  });
}

// That real call on the customer's dashboard: counted today, answered, its campaign the busiest.
if (process.env.E2E_LIVE_CALLER) {
  test('customer: the dashboard counts that real call', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/dashboard');
    await page.getByTestId('stat-calls-value').waitFor();
    assert.equal(await page.getByTestId('stat-calls-value').innerText(), '1');
    assert.equal(await page.getByTestId('stat-answered-value').innerText(), '1');
    assert.match(await page.getByTestId('stat-answered').innerText(), /100% answered/);
    assert.match(await page.getByTestId('dashboard-campaigns').innerText(), /Leads\s+1\s+1/);
    assert.ok(await page.getByTestId('dashboard-chart').locator('.recharts-bar-rectangle').count(), 'a bar for the hour');
    await shot(page, 'dashboard-1440.png');
    assert.deepEqual(page.__errors || [], [], 'no page errors');
    await page.context().close();
  });
}

// With E2E_TRUNK_REACHABLE set to a trunk's name, the bridge is running and Asterisk qualifies that
// trunk (tests/asterisk): the admin's trunk list shows it reachable, with the round trip.
if (process.env.E2E_TRUNK_REACHABLE) {
  test('admin: the trunk list shows the trunk Asterisk reaches', async () => {
    const page = await newPage(1440);
    await signIn(page, 'admin', '/manage-trunk');
    const endpoint = page.locator(`[data-testid="trunk-row"][data-name="${process.env.E2E_TRUNK_REACHABLE}"]`).getByTestId('trunk-endpoint');
    const refresh = () => clickAndAnswer(page, page.getByRole('button', { name: 'Refresh trunks' }), '/trunk/');
    await refreshUntil(endpoint.filter({ hasText: /^Reachable \((<1|\d+) ms\)$/ }), refresh);
    await shot(page, 'trunk-reachable-1440.png');
    await page.context().close();
  });
}

// ---------------------------------------------------------------- run
let passed = 0;
let failed = 0;
const started = Date.now();
for (const t of tests) {
  if (ONLY && !ONLY.test(t.name)) continue;
  const t0 = Date.now();
  let timer;
  try {
    await Promise.race([t.fn(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${t.timeout} ms`)), t.timeout)))]);
    passed += 1;
    console.log(`ok   ${t.name} (${Date.now() - t0} ms)`);
  } catch (err) {
    failed += 1;
    console.log(`FAIL ${t.name} (${Date.now() - t0} ms)\n     ${String(err?.stack || err).split('\n').slice(0, 6).join('\n     ')}`);
    await shootOpenPages(t.name); // a page closed meanwhile has nothing to show
    await Promise.all(browser.contexts().map((c) => c.close()));
  } finally {
    clearTimeout(timer);
  }
}
await browser.close();
console.log(`# screenshots in ${ARTIFACTS}; ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
