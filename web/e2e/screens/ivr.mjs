// IVR: the customer sets its campaign's PINs and prompt on the campaign page's IVR tab (their rules
// refused first; a core prompt chosen, then one uploaded); /user_ivr lists it; the admin finds the
// campaign on /ivr by customer name and turns IVR off.
import assert from 'node:assert/strict';
import { noErrors } from '../page-errors.mjs';
import { pickExact } from '../pickers.mjs';
import { ivrLoaded, still } from '../waits.mjs';

// The API's answers, as the generated client types them.
/** @typedef {import('../../src/client/types.gen.ts').IvrSettings} IvrSettings */

/**
 * A WAV file of `seconds` of a 440 Hz tone (16 kHz mono), as a recorded prompt might be.
 * @param {number} seconds
 */
function tone(seconds) {
  const rate = 16000;
  const samples = Math.round(seconds * rate);
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let n = 0; n < samples; n++)
    wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * n) / rate)), 44 + n * 2);
  return wav;
}

/** @param {import('../run.mjs').Harness} harness */
export default function registerIvrScenarios({ test, newPage, signIn, nameOfCustomer, shot, api, BASE }) {
  test("IVR: the customer sets PINs and a prompt on its campaign's IVR tab (a core prompt, then an upload; a file that is no WAV refused); /user_ivr lists it; the admin finds it on /ivr by customer and turns it off", async () => {
    const page = await newPage(1440);
    await signIn(page, 'customer', '/campaign');
    const stamp = Date.now() % 100000;
    const name = `E2E IVR ${stamp}`;
    const created = await api('customer', 'POST', '/campaign/add', { name });
    assert.equal(created.status, 201, created.message);
    const campaignId = created.data.id;
    await page.reload();
    await page.getByRole('textbox', { name: 'Search campaigns' }).fill(name);
    await page.locator(`[data-testid="campaign-row"][data-name="${name}"]`).getByTestId('campaign-name-link').click();
    await page.getByTestId('campaign-tab-ivr').click();
    await page.waitForURL(new RegExp(`/campaign/${campaignId}/ivr$`));
    const panel = page.getByTestId('campaign-panel-ivr');
    await ivrLoaded(page);
    await page.getByTestId('ivr-enabled').check();
    await panel.getByTestId('ivr-save').click();
    await panel.getByText('An enabled IVR needs at least one PIN').waitFor();
    await page.getByTestId('ivr-pins').fill('1234, 567');
    await panel.getByTestId('ivr-save').click();
    await panel.getByText('Every PIN must have 4 digits; 567 does not').waitFor();
    await page.getByTestId('ivr-pins').fill('1234\n5678');
    await page.getByTestId('ivr-new-pin').click();
    assert.match(await page.getByTestId('ivr-pins').inputValue(), /^1234, 5678, \d{4}$/, 'a random 4-digit PIN added');
    // The prompt: what Asterisk says, chosen from its core prompts rather than typed.
    await panel.getByRole('combobox', { name: 'Prompt' }).click();
    await page.getByRole('option', { name: /Please enter the conference pin number/ }).click();
    await page.getByTestId('ivr-ivr_attempts').fill('2');
    await panel.getByTestId('ivr-save').click();
    await panel
      .getByTestId('ivr-form-notice')
      .filter({ hasText: `IVR settings of ${name} saved.` })
      .waitFor();
    /** @type {IvrSettings} */
    const stored = (await api('customer', 'GET', `/campaign/ivr/${campaignId}`)).data;
    assert.deepEqual(
      [stored.ivr_enabled, stored.ivr_prompt, stored.ivr_attempts, stored.ivr_digits],
      [true, 'conf-getpin', 2, 4]
    );
    assert.equal(stored.ivr_pins.length, 3);
    assert.ok(stored.ivr_pins.includes('1234') && stored.ivr_pins.includes('5678'));

    // An uploaded prompt: an MP3 that is no sound is refused with why (decoded by mpg123 where the
    // machine has it, else refused for want of it); a WAV is converted and chosen.
    const file = page.getByTestId('ivr-prompt-file');
    await file.setInputFiles({ name: 'greeting.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from('ID3 not a wav') });
    await panel.getByText(/MP3 file (but could not be decoded|s can't be read here)/).waitFor();
    await file.setInputFiles({ name: 'Acme greeting.wav', mimeType: 'audio/wav', buffer: tone(1.5) });
    await panel
      .getByRole('combobox', { name: 'Prompt' })
      .filter({ hasText: 'Uploaded: Acme greeting (1.5 s)' })
      .waitFor();
    await panel.getByTestId('ivr-save').click();
    await panel
      .getByTestId('ivr-form-notice')
      .filter({ hasText: `IVR settings of ${name} saved.` })
      .waitFor();
    const uploaded = (await api('customer', 'GET', `/campaign/ivr/${campaignId}`)).data.ivr_prompt;
    assert.match(uploaded ?? '', /^prompt:[0-9a-f]{64}$/);
    await still(page);
    await shot(page, 'campaign-ivr-1440.png');

    await page.goto(`${BASE}/user_ivr`);
    await page.getByRole('textbox', { name: 'Search campaigns' }).fill(name);
    const row = page.locator(`[data-testid="ivr-row"][data-name="${name}"]`);
    await row.getByTestId('ivr-state').filter({ hasText: 'On' }).waitFor();
    assert.equal(await row.getByTestId('ivr-pin-count').innerText(), '3');
    await row.getByText('Uploaded').waitFor();
    await still(page);
    await shot(page, 'user-ivr-1440.png');
    noErrors(page);
    await page.context().close();

    const admin = await newPage(1440);
    await signIn(admin, 'admin', '/ivr');
    const customerName = nameOfCustomer();
    await pickExact(admin, 'ivr-customer', customerName.slice(0, 5), customerName);
    await admin.getByRole('combobox', { name: 'IVR' }).click();
    await admin.getByRole('option', { name: 'on' }).click();
    await admin.getByRole('textbox', { name: 'Search campaigns' }).fill(name);
    const adminRow = admin.locator(`[data-testid="ivr-row"][data-name="${name}"]`);
    // Until the row reads so (the list shown before the filters applied may hold it first).
    const shown = `${name}\\s+${customerName}\\s+On\\s+Uploaded\\s+4\\s+3\\s+2`;
    await admin.waitForFunction(([rowName, pattern]) => {
      const el = document.querySelector(`[data-testid="ivr-row"][data-name="${rowName}"]`);
      return el instanceof HTMLElement && new RegExp(pattern).test(el.innerText);
    }, /** @type {const} */ ([name, shown]));
    await adminRow.getByTestId('ivr-edit').click();
    await ivrLoaded(admin);
    assert.equal(await admin.getByTestId('ivr-ivr_attempts').inputValue(), '2', 'read from the server');
    await admin.getByTestId('ivr-enabled').uncheck();
    await admin.getByTestId('ivr-dialog').getByTestId('ivr-save').click();
    await admin
      .getByTestId('ivr-notice')
      .filter({ hasText: `IVR settings of ${name} saved.` })
      .waitFor();
    await adminRow.waitFor({ state: 'detached' }); // the list shows campaigns with IVR on only
    await still(admin);
    await shot(admin, 'ivr-1440.png');
    /** @type {IvrSettings} */
    const after = (await api('admin', 'GET', `/campaign/ivr/${campaignId}`)).data;
    assert.deepEqual([after.ivr_enabled, after.ivr_pins.length], [false, 3], 'off, PINs kept');
    noErrors(admin);
    await admin.context().close();
  });
}
