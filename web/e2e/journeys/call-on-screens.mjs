// A real call followed across the screens; tests/asterisk/test_calls.py places it and sets these.
// Registered in this order (the report looks for the call hung up on Live Calls).
import assert from 'node:assert/strict';
import { cellHas } from '../cells.mjs';
import { clickAndAnswer, refreshUntil, textChanges } from '../waits.mjs';
import { noErrors } from '../page-errors.mjs';

/**
 * How long the recording in the `<audio>` element `audio` lasts (s), once the browser has read it.
 * @param {import('playwright-core').Locator} audio
 * @returns {Promise<number>}
 */
const recordingSeconds = (audio) =>
  audio.evaluate(
    (el) =>
      new Promise((resolve, reject) => {
        if (!(el instanceof HTMLMediaElement)) reject(new Error(`<${el.tagName}> is no audio`));
        else if (el.readyState >= 1) resolve(el.duration);
        else el.addEventListener('loadedmetadata', () => resolve(el.duration), { once: true });
      })
  );

/** @param {import('../run.mjs').Harness} harness */
export default function registerCallOnScreens({ test, newPage, signIn, shot }) {
  const caller = process.env.E2E_LIVE_CALLER;
  const liveDid = process.env.E2E_LIVE_DID;
  const reachable = process.env.E2E_TRUNK_REACHABLE;
  // With E2E_LIVE_CALLER set, a real call from that number is up (tests/asterisk starts it): the
  // customer sees it on /live-calls, talking, and hangs it up from there.
  if (caller) {
    test('customer: a real call shows on /live-calls and is hung up from there', async () => {
      const page = await newPage(1440);
      await signIn(page, 'customer', '/live-calls');
      const row = page.locator(`[data-testid="live-row"][data-caller="${caller}"]`);
      await row.and(page.locator('[data-state="connected"]')).waitFor({ timeout: 20000 });
      assert.match(await row.innerText(), new RegExp(process.env.E2E_LIVE_TARGET || 'Talking'));
      await textChanges(row.getByTestId('live-duration'), { timeout: 3000 }); // the duration ticks
      assert.equal(
        (await page.getByTestId('live-calls-badge').first().innerText()).trim(),
        '1',
        'header badge counts it'
      );
      await shot(page, 'live-calls-1440.png');
      await row.getByTestId('live-hangup').click();
      await page.getByTestId('confirm-button').click();
      await page
        .getByTestId('live-notice')
        .filter({ hasText: `Call from ${caller} hung up.` })
        .waitFor();
      await row.waitFor({ state: 'detached' }); // the socket pushed the end
      await page.getByText('No calls in progress.').waitFor();
      noErrors(page);
      await page.context().close();
    });
  }

  // After the live-calls test above: the call it hung up is in the report, opened with its trail.
  if (caller) {
    test('customer: that real call is in /report, with its routing trail', async () => {
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
      assert.ok(
        (await detail.locator('[data-testid="trail-entry"]').count()) >= 3,
        'route, selection and dial at least'
      );
      if (process.env.E2E_LIVE_RECORDED) {
        // The campaign records: the recording plays in the page, as long as the talk.
        await detail.getByTestId('call-recording-play').click();
        const audio = detail.getByTestId('call-recording');
        await audio.waitFor();
        const seconds = await recordingSeconds(audio);
        assert.ok(seconds >= 1, `a recording of ${seconds} s`);
      }
      await shot(page, 'report-detail-1440.png');
      noErrors(page);
      await page.context().close();
    });
  }

  // The same call as its buyer sees it: on /buyercdr, with its target, and the recording playing.
  if (caller && process.env.E2E_LIVE_RECORDED) {
    test('buyer: that real call is in /buyercdr, its recording playing', async () => {
      const page = await newPage(1440);
      await signIn(page, 'buyer', '/buyercdr');
      const row = page.locator(`[data-testid="buyercdr-row"][data-caller="${caller}"]`);
      await row.waitFor();
      assert.match(
        await row.innerText(),
        new RegExp(
          `ANSWERED[\\s\\S]*${process.env.E2E_LIVE_TARGET || ''}|${process.env.E2E_LIVE_TARGET || ''}[\\s\\S]*ANSWERED`
        )
      );
      await row.getByTestId('call-recording-play').click();
      const seconds = await recordingSeconds(row.getByTestId('call-recording'));
      assert.ok(seconds >= 1, `a recording of ${seconds} s`);
      await shot(page, 'buyercdr-1440.png');
      noErrors(page);
      await page.context().close();
    });
  }

  // The tracking number of that real call, tested on /campaign: the dry run names its target.
  if (liveDid) {
    test('customer: test routing for the real tracking number names the target it rings', async () => {
      const page = await newPage(1440);
      await signIn(page, 'customer', '/campaign');
      await page.getByTestId('dryrun-open').click();
      await page.getByTestId('dryrun-did').fill(liveDid);
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
  if (caller) {
    test('customer: the dashboard counts that real call', async () => {
      const page = await newPage(1440);
      await signIn(page, 'customer', '/dashboard');
      await page.getByTestId('stat-calls-value').waitFor();
      assert.equal(await page.getByTestId('stat-calls-value').innerText(), '1');
      assert.equal(await page.getByTestId('stat-answered-value').innerText(), '1');
      assert.match(await page.getByTestId('stat-answered').innerText(), /100% answered/);
      assert.match(await page.getByTestId('dashboard-campaigns').innerText(), /Leads\s+1\s+1/);
      assert.ok(
        await page.getByTestId('dashboard-chart').locator('.recharts-bar-rectangle').count(),
        'a bar for the hour'
      );
      await shot(page, 'dashboard-1440.png');
      noErrors(page);
      await page.context().close();
    });
  }

  // With E2E_TRUNK_REACHABLE set to a trunk's name, the bridge is running and Asterisk qualifies that
  // trunk (tests/asterisk): the admin's trunk list shows it reachable, with the round trip.
  if (reachable) {
    test('admin: the trunk list shows the trunk Asterisk reaches', async () => {
      const page = await newPage(1440);
      await signIn(page, 'admin', '/manage-trunk');
      const endpoint = page
        .locator(`[data-testid="trunk-row"][data-name="${reachable}"]`)
        .getByTestId('trunk-endpoint');
      const refresh = () => clickAndAnswer(page, page.getByRole('button', { name: 'Refresh trunks' }), '/trunk/');
      await refreshUntil(endpoint.filter({ hasText: /^Reachable \((<1|\d+) ms\)$/ }), refresh);
      await shot(page, 'trunk-reachable-1440.png');
      await page.context().close();
    });
  }
}
