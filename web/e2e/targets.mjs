// Steps on /target that several browser scenarios share.

/**
 * Opens /target's add dialog and fills what every target needs: its name, its buyer and where it is
 * dialled. Returns the dialog, for the scenario's own fields and its save.
 */
export async function startNewTarget(page, name, { buyer = 'Bea Buyer', destination = '+1 415 555 0100' } = {}) {
  await page.getByTestId('target-add').click();
  const dialog = page.getByTestId('target-dialog');
  await page.getByTestId('target-name').fill(name);
  await dialog.getByRole('combobox', { name: 'Buyer' }).click();
  await page.getByRole('option', { name: buyer }).click();
  await page.getByTestId('target-destination').fill(destination);
  return dialog;
}
