#!/usr/bin/env node
// Browser tests: playwright-core driving Debian's Chromium (/usr/bin/chromium), headless.
//
//   BASE_URL=http://127.0.0.1:8000 ADMIN_EMAIL=... ADMIN_PASSWORD=... CUSTOMER_EMAIL=... \
//   CUSTOMER_PASSWORD=... CUSTOMER_NAME=... BUYER_EMAIL=... BUYER_PASSWORD=... node e2e/run.mjs
//
// BASE_URL is the real API serving the built UI (tests/web/test_e2e.py starts one); there is no
// stand-in server. Screenshots go to web/test-artifacts/.
// This file is the runner: the browser, fresh pages, signing in, the order of the scenarios (one
// module per screen or group of screens in e2e/screens/, the real-call journeys in e2e/journeys/),
// the report. Prints "N passed, N failed" and exits 1 when any test failed.
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { apiAs } from './api.mjs';
import { keepErrorsAndDialogs } from './page-errors.mjs';
import registerCallOnScreens from './journeys/call-on-screens.mjs';
import registerRealCall from './journeys/real-call.mjs';
import registerAppScenarios from './screens/app.mjs';
import registerAuthScenarios from './screens/auth.mjs';
import registerBillingScenarios from './screens/billing.mjs';
import registerBuyerScenarios from './screens/buyers.mjs';
import registerCampaignScenarios from './screens/campaigns.mjs';
import registerIvrScenarios from './screens/ivr.mjs';
import registerNumberScenarios from './screens/numbers.mjs';
import registerProfileScenarios from './screens/profile.mjs';
import registerShellScenarios from './screens/shell.mjs';
import registerSourceScenarios from './screens/sources.mjs';
import registerTargetScenarios from './screens/targets.mjs';
import registerTariffScenarios from './screens/tariffs.mjs';
import registerTrunkScenarios from './screens/trunks.mjs';
import registerUserScenarios from './screens/users.mjs';
import registerVendorScenarios from './screens/vendors.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = process.env.E2E_ARTIFACTS || join(here, '..', 'test-artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const TEST_TIMEOUT = Number(process.env.E2E_TEST_TIMEOUT || 60000);
const ONLY = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY, 'i') : null;
mkdirSync(ARTIFACTS, { recursive: true });

/** @param {string} k */
const need = (k) => {
  const v = process.env[k];
  if (!v) throw new Error(`env ${k} is required`);
  return v;
};
const BASE = need('BASE_URL').replace(/\/$/, '');
/**
 * An account to sign in as.
 * @typedef {{ name?: string, email: string, password: string }} Account
 */
/**
 * Read when a test signs in, so a run limited by E2E_ONLY needs only the accounts it uses.
 * @param {string} prefix
 * @returns {Account}
 */
const account = (prefix, name = '') => ({
  name,
  get email() {
    return need(`${prefix}_EMAIL`);
  },
  get password() {
    return need(`${prefix}_PASSWORD`);
  }
});
/**
 * The runner's accounts by role, and any a scenario adds (billing's payer, the real call's).
 * @type {{ admin: Account, customer: Account, buyer: Account } & Record<string, Account>}
 */
const ACCOUNTS = {
  admin: account('ADMIN'),
  customer: account('CUSTOMER', process.env.CUSTOMER_NAME || ''),
  buyer: account('BUYER')
};
const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync'
];

// ---------------------------------------------------------------- tiny harness
/** @type {{ name: string, fn: () => Promise<void>, timeout: number }[]} */
const tests = [];
/**
 * `timeout` (ms) for a test that loads many pages; others get TEST_TIMEOUT.
 * @type {Harness['test']}
 */
const test = (name, fn, { timeout = TEST_TIMEOUT } = {}) => {
  tests.push({ name, fn, timeout });
};

// ---------------------------------------------------------------- the browser, pages, sign-in
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROME_ARGS });
/**
 * A signed-in role's session as the portal stores it: its token and its user (JSON).
 * @typedef {{ token: string, user: string }} Session
 */
/** @type {Record<string, Session>} */
const sessions = {};

/** @type {Harness['newPage']} */
async function newPage(width = 1440, height = 900) {
  const context = await browser.newContext({ viewport: { width, height }, timezoneId: 'UTC', locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  keepErrorsAndDialogs(page);
  return page;
}

/**
 * What every page still open shows, saved as FAILED-*.png when a test fails.
 * @param {string} name
 */
async function shootOpenPages(name) {
  const pages = browser.contexts().flatMap((c) => c.pages());
  const slug = name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
  await Promise.all(
    pages.map((p, i) => p.screenshot({ path: join(ARTIFACTS, `FAILED-${slug}-${i}.png`) }).catch(() => {}))
  );
}

/** @type {Harness['signInUi']} */
async function signInUi(page, role) {
  const who = ACCOUNTS[role];
  assert.ok(who, `no account for ${role}`);
  const { email, password } = who;
  await page.goto(`${BASE}/login`);
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/dashboard$/);
  await page.getByTestId('page-title').filter({ hasText: 'Dashboard' }).waitFor();
  const stored = await page.evaluate(() => ({
    token: localStorage.getItem('token'),
    user: localStorage.getItem('user')
  }));
  assert.ok(stored.token, 'token stored');
  assert.ok(stored.user, 'user stored');
  sessions[role] = { token: stored.token, user: stored.user };
}

/**
 * Reuse a session captured by signInUi (keeps the number of sign-ins small for a throttled API).
 * @type {Harness['signIn']}
 */
async function signIn(page, role, path = '/dashboard') {
  const session = sessions[role];
  if (!session) {
    await signInUi(page, role);
    if (path === '/dashboard') return;
  } else {
    await page.goto(`${BASE}/login`);
    await page.evaluate((s) => {
      localStorage.setItem('token', s.token);
      localStorage.setItem('user', s.user);
    }, session);
  }
  await page.goto(`${BASE}${path}`);
  await page.getByTestId('page-title').first().waitFor();
}

/** @type {Harness['shot']} */
const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, name), fullPage: false });
const api = apiAs(BASE, sessions);
/** The customer's name: CUSTOMER_NAME, else the name its sign-in stored. */
const nameOfCustomer = () =>
  ACCOUNTS.customer.name ||
  // JSON the portal stored: its user, as the API answered at sign-in.
  /** @type {{ name?: string }} */ (JSON.parse(sessions.customer?.user || '{}')).name ||
  '';

/**
 * What each screen's module gets to register its scenarios.
 * @typedef {object} Harness
 * @property {(name: string, fn: () => Promise<void>, options?: { timeout?: number }) => void} test
 *   a scenario, run after those registered before it; `timeout` (ms) for one loading many pages
 * @property {(width?: number, height?: number) => Promise<import('playwright-core').Page>} newPage
 *   a page in a context of its own (UTC, en-US); dialogs accepted, page errors kept (page-errors.mjs)
 * @property {(page: import('playwright-core').Page, role: string) => Promise<void>} signInUi
 *   signs `role` in through /login, keeping its session
 * @property {(page: import('playwright-core').Page, role: string, path?: string) => Promise<void>} signIn
 *   opens `path` as `role`, reusing its session (signing in through /login the first time)
 * @property {Record<string, Session>} sessions the sessions kept, by role
 * @property {typeof ACCOUNTS} ACCOUNTS the accounts by role (admin, customer, buyer); a module may add its own
 * @property {() => string} nameOfCustomer the customer's name
 * @property {(page: import('playwright-core').Page, name: string) => Promise<Buffer>} shot a screenshot into the artifacts
 * @property {ReturnType<typeof apiAs>} api a call to the API as a signed-in role
 * @property {string} BASE the portal's URL
 * @property {number} TEST_TIMEOUT a scenario's default timeout (ms)
 */
/** @type {Harness} */
const harness = { test, newPage, signInUi, signIn, sessions, ACCOUNTS, nameOfCustomer, shot, api, BASE, TEST_TIMEOUT };

// ---------------------------------------------------------------- the order
// Where one scenario leaves state for another: the shell's logout ends the buyer's stored session
// (buyers' /buyer-target signs in afresh), the customer's wallet stays empty until numbers has
// refused a paid number (billing pays with a customer of its own), and the call followed across
// the screens is hung up on Live Calls before the report looks for it.
for (const register of [
  registerAuthScenarios,
  registerShellScenarios,
  registerAppScenarios,
  registerUserScenarios,
  registerProfileScenarios,
  registerTrunkScenarios,
  registerCampaignScenarios,
  registerTargetScenarios,
  registerNumberScenarios,
  registerBuyerScenarios,
  registerTariffScenarios,
  registerBillingScenarios,
  registerVendorScenarios,
  registerSourceScenarios,
  registerIvrScenarios,
  registerRealCall, // with E2E_CALL_TARGET_PORT and E2E_CALL_CALLER
  registerCallOnScreens // with E2E_LIVE_CALLER, E2E_LIVE_DID or E2E_TRUNK_REACHABLE
])
  register(harness);

// ---------------------------------------------------------------- run
let passed = 0;
let failed = 0;
const started = Date.now();
for (const t of tests) {
  if (ONLY && !ONLY.test(t.name)) continue;
  const t0 = Date.now();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  try {
    await Promise.race([
      t.fn(),
      new Promise(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${t.timeout} ms`)), t.timeout))
      )
    ]);
    passed += 1;
    console.log(`ok   ${t.name} (${Date.now() - t0} ms)`);
  } catch (err) {
    failed += 1;
    console.log(
      `FAIL ${t.name} (${Date.now() - t0} ms)\n     ${String((err instanceof Error && err.stack) || err)
        .split('\n')
        .slice(0, 6)
        .join('\n     ')}`
    );
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
