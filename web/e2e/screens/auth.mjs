// Signing in, and what stays out of reach without it: /login's own checks and the server's
// refusal, /register's checks, a signed-in route without a token, a forgotten password and a bad
// reset link.
import assert from 'node:assert/strict';
import { still } from '../waits.mjs';

/** @param {import('../run.mjs').Harness} harness */
export default function registerAuthScenarios({ test, newPage, ACCOUNTS, shot, BASE }) {
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
}
