// The admin's trunks (/manage-trunk): the dialog's own checks and the server's, the address and
// endpoint state in the list, the direction filter, an edit, deactivated (still after a reload),
// deleted.
import assert from 'node:assert/strict';
import { cellHas } from '../cells.mjs';
import { still } from '../waits.mjs';
import { noErrors } from '../page-errors.mjs';

/** @param {import('../run.mjs').Harness} harness */
export default function registerTrunkScenarios({ test, newPage, signIn, shot }) {
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
    await page
      .getByTestId('trunk-notice')
      .filter({ hasText: `Trunk ${name} created.` })
      .waitFor();
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
    await page
      .getByTestId('trunk-notice')
      .filter({ hasText: `Trunk ${name} deleted.` })
      .waitFor();
    await row.waitFor({ state: 'detached' });
    noErrors(page);
    await page.context().close();
  });
}
