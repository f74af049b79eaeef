// Signs in to the built portal in Chromium and visits its pages under the API's real
// Content-Security-Policy; prints JSON: what the browser refused, and proof that styles applied.
// Usage: CHROMIUM_PATH=<chromium> node tests/web/csp_check.mjs <base url> <email> <password>
// (run by tests/web/test_csp.py, with the chromium_binary fixture's)
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../web/package.json', import.meta.url));
// Loaded from web/node_modules (tests/ has none); tsconfig.e2e.json maps the types there too.
const { chromium } = /** @type {typeof import('playwright-core')} */ (require('playwright-core'));
const [base, email, password] = process.argv.slice(2);
if (!base || !email || !password) throw new Error('usage: node tests/web/csp_check.mjs <base url> <email> <password>');
const PAGES = ['dashboard', 'live-calls', 'report', 'rate-card', 'wallet', 'invoice', 'campaign', 'profile'];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH,
  args: ['--no-sandbox']
});
const page = await browser.newPage();
/** @type {string[]} */
const refused = [];
page.on('console', (m) => {
  if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
});
page.on('pageerror', (e) => refused.push(`page error: ${e}`));
try {
  await page.goto(`${base}/login`);
  const submit = page.getByTestId('login-submit');
  const button = await submit.evaluate((el) => getComputedStyle(el).backgroundColor);
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(password);
  await submit.click();
  await page.waitForURL(/\/dashboard$/);
  const visited = [];
  for (const p of PAGES) {
    await page.goto(`${base}/${p}`);
    await page.getByTestId('page-title').waitFor();
    visited.push(p);
  }
  console.log(JSON.stringify({ refused, button, visited }));
} finally {
  await browser.close();
}
