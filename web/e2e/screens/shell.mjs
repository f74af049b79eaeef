// The frame around every screen, per role: the sidebar's menu groups, the header's items (clock,
// balance, live-calls badge, notifications, profile menu), the theme and the drawer kept across a
// reload, the 390 px layout with its more-menu, the sidebar's scroll cue at 1440x900, logging out.
import assert from 'node:assert/strict';
import { ADMIN_GROUPS, USER_GROUPS, navTitles } from '../nav.mjs';
import { clickAndAnswer, still, textChanges } from '../waits.mjs';

const CLOCK = /^\d{2}:\d{2}:\d{2} (AM|PM)$/;
/** Run in the page: the header's clock shows a time (CLOCK, which the page cannot see). */
const clockShowsTime = () => {
  const clock = document.querySelector('[data-testid="header-clock"]');
  return /^\d{2}:\d{2}:\d{2} (AM|PM)$/.test(clock instanceof HTMLElement ? clock.innerText.trim() : '');
};
/**
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
const visible = (page, id) => page.getByTestId(id).first().isVisible();

/** @param {import('../run.mjs').Harness} harness */
export default function registerShellScenarios({ test, newPage, signIn, signInUi, sessions, ACCOUNTS, shot, BASE }) {
  test('admin: sign in, admin menu and header items (1440)', async () => {
    const page = await newPage(1440);
    await signInUi(page, 'admin');
    assert.deepEqual(await navTitles(page), ADMIN_GROUPS);
    assert.equal(await page.getByTestId('drawer').getAttribute('data-variant'), 'permanent');
    assert.ok(await visible(page, 'drawer-toggle'), 'drawer toggle');
    assert.ok(!(await page.getByTestId('header-balance').count()), 'no balance for admin');
    assert.ok(!(await page.getByTestId('back-to-admin').count()), 'no Back To Admin');
    assert.ok(!(await page.getByTestId('buyer-chip-report').count()), 'no buyer chips');
    await page.waitForFunction(clockShowsTime);
    assert.match((await textChanges(page.getByTestId('header-clock'), { timeout: 3000 })).trim(), CLOCK, 'clock ticks');
    assert.equal(await page.getByTestId('header-live-calls').getAttribute('href'), '/live-calls');
    assert.match((await page.getByTestId('live-calls-badge').innerText()).trim(), /^\d+$/);
    for (const id of ['header-notifications', 'header-lock', 'header-logout', 'header-profile'])
      assert.ok(await visible(page, id), id);
    // the Dashboard item is selected on /dashboard
    assert.equal(await page.getByTestId('nav-item-dashboard').getAttribute('aria-current'), 'page');
    // profile menu
    await page.getByTestId('header-profile').click();
    const menu = page.getByTestId('profile-menu');
    await menu.waitFor();
    assert.ok(sessions.admin, 'admin signed in');
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
    await page.waitForFunction(() => {
      const amount = document.querySelector('[data-testid="balance-amount"]');
      return /\$/.test(amount instanceof HTMLElement ? amount.innerText : '');
    });
    assert.ok(sessions.customer, 'customer signed in');
    const user = JSON.parse(sessions.customer.user);
    const low = Number(user.balance) < 50;
    const refreshable = () => {
      const refresh = document.querySelector('[data-testid="balance-refresh"]');
      return refresh instanceof HTMLButtonElement && !refresh.disabled;
    };
    await page.waitForFunction(refreshable);
    const amount = page.getByTestId('balance-amount');
    const weight = await amount.evaluate((el) => getComputedStyle(el).fontWeight);
    const anim = await amount.evaluate((el) => getComputedStyle(el).animationName);
    assert.equal(
      (await page.getByTestId('header-balance').getAttribute('data-low')) === 'true',
      low,
      'low-balance flag'
    );
    if (low) {
      assert.equal(weight, '700');
      assert.notEqual(anim, 'none');
    } else assert.equal(anim, 'none');
    await page.getByTestId('balance-refresh').click();
    await page.waitForFunction(refreshable);
    await page.waitForFunction(clockShowsTime);
    assert.equal(await page.getByTestId('header-clock').getAttribute('data-timezone'), user.timezone || 'UTC');
    assert.ok(await visible(page, 'header-live-calls'));
    assert.ok(!(await page.getByTestId('buyer-chip-report').count()), 'no buyer chips');
    if (ACCOUNTS.customer.name) assert.equal(user.name, ACCOUNTS.customer.name);
    // notification dropdown
    const firstPage = await clickAndAnswer(
      page,
      page.getByTestId('header-notifications'),
      '/notification/notification?'
    );
    const notices = (await firstPage.json()).data.total;
    const dropdown = page.getByTestId('notification-dropdown');
    await dropdown.getByText('Notification', { exact: true }).waitFor();
    await page.waitForFunction(() => {
      const list = document.querySelector('[data-testid="notification-list"]');
      return !/Loading\.\.\./.test((list instanceof HTMLElement && list.innerText) || 'Loading...');
    });
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
    for (const id of ['header-balance', 'header-clock', 'header-live-calls'])
      assert.equal(await page.getByTestId(id).count(), 0, `no ${id}`);
    for (const id of ['header-notifications', 'header-lock', 'header-logout', 'header-profile'])
      assert.ok(await visible(page, id), id);
    await shot(page, 'buyer-1440.png');
    await page.getByTestId('buyer-chip-report').click();
    await page.waitForURL(/\/buyercdr$/);
    await page.getByTestId('page-title').waitFor();
    await page.getByTestId('buyer-chip-target').click();
    await page.waitForURL(/\/buyer-target$/);
    await page.getByTestId('page-title').filter({ hasText: 'Buyer Target' }).waitFor();
    await page.context().close();
  });

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
    await page.waitForFunction(
      () => document.querySelector('[data-testid="drawer"]')?.getAttribute('data-open') === 'false'
    );
    assert.equal(await page.evaluate(() => localStorage.getItem('isDashboardDrawerOpened')), 'false');
    await page.reload();
    await page.getByTestId('page-title').waitFor();
    assert.equal(await page.getByTestId('drawer').getAttribute('data-open'), 'false', 'still collapsed after reload');
    assert.equal(await page.getByTestId('nav-group-title').count(), 0, 'group titles hidden when collapsed');
    await still(page);
    const logo = await page.getByTestId('logo').boundingBox();
    assert.ok(logo && Math.round(logo.width) === 35, `narrow logo (${logo?.width})`);
    const paper = await page.locator('[data-testid="drawer"] .MuiDrawer-paper').boundingBox();
    assert.ok(paper && paper.width < 100, `mini drawer (${paper?.width})`);
    await shot(page, 'admin-1440-collapsed.png');
    await page.getByTestId('drawer-toggle').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="drawer"]')?.getAttribute('data-open') === 'true'
    );
    assert.equal(await page.evaluate(() => localStorage.getItem('isDashboardDrawerOpened')), 'true');
    await page.getByTestId('logo').click();
    await page.waitForURL(new RegExp(`${BASE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/$`));
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
        await page.waitForFunction(
          () => document.querySelector('[data-testid="drawer"]')?.getAttribute('data-open') === 'false'
        );
      } else {
        assert.equal(await page.getByTestId('drawer').count(), 0);
      }
      await page.getByTestId('header-more').click();
      const more = page.getByTestId('more-menu');
      await more.waitFor();
      for (const id of ['header-notifications', 'header-lock', 'header-logout', 'header-profile'])
        assert.ok(await more.getByTestId(id).isVisible(), `${id} in more-menu`);
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

  // Last of the shell's: it ends the buyer's stored session (a later buyer scenario signs in afresh).
  test('logout clears local storage and returns to /login', async () => {
    const page = await newPage(1440);
    await signInUi(page, 'buyer');
    await page.getByTestId('header-logout').click();
    await page.waitForURL(/\/login$/);
    assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);
    assert.equal(await page.evaluate(() => localStorage.getItem('user')), null);
    await page.context().close();
  });
}
