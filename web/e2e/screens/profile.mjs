// The customer's own profile (/profile) and password (/changepassword): the name as typed shown in
// the header at once, a notice that fades, a searchable time zone, a wrong password said once.
import assert from 'node:assert/strict';
import { clickAndAnswer } from '../waits.mjs';

/** @param {import('../run.mjs').Harness} harness */
export default function registerProfileScenarios({ test, newPage, signIn, sessions, ACCOUNTS, shot, BASE }) {
  test('customer: name as typed in the header, a fading notice, a searchable timezone, one password error', async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/profile');
    const token = sessions.customer?.token;
    assert.ok(token, 'customer signed in');
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
}
