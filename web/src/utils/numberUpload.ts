// Number CSV uploads (POST /number/vcr): what a file must look like and the checks made before it
// is sent (the server makes them again). The server answers the counts and the skipped lines.

export const UPLOAD_COLUMNS: readonly string[] = ['number', 'country', 'vendor', 'setup_fee', 'monthly_fee'];
/** Numbers per file; the server refuses more (its MAX_UPLOAD_ROWS setting, 100,000 by default). */
export const MAX_UPLOAD_ROWS = 100000;
/** Bytes per file; the server answers 413 above it. */
export const MAX_UPLOAD_BYTES = 10_000_000;

export const SAMPLE_CSV = [
  UPLOAD_COLUMNS.join(','),
  '+442079460001,GB,Acme Telecom,0,1.50',
  '+14155550123,US,,2.00,1.00',
  '02079460002,GB,Acme Telecom,0,1.50'
].join('\n');

/** Data lines (not blank, after the header). */
export function countRows(text: string | null | undefined): number {
  const lines = String(text ?? '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  return Math.max(0, lines.length - 1);
}

/** Why `file` (with its `text`) can't be sent, or '' when it can. */
export function uploadProblem(
  file: Pick<File, 'name' | 'size' | 'type'> | null | undefined,
  text: string | null | undefined
): string {
  if (!file) return 'Choose a CSV file first.';
  if (!/\.csv$/i.test(file.name) && !/csv/.test(file.type ?? '')) return 'Upload a .csv file.';
  if (file.size > MAX_UPLOAD_BYTES) return 'The file is larger than 10 MB.';
  const header = String(text ?? '')
    .split(/\r?\n/)
    .find((l) => l.trim() !== '');
  if (!header) return 'The file is empty.';
  const names = header
    .replace(/^\uFEFF/, '')
    .split(',')
    .map((c) => c.trim().toLowerCase());
  const missing = UPLOAD_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length)
    return `The first line must name the columns ${UPLOAD_COLUMNS.join(', ')}; missing: ${missing.join(', ')}.`;
  const rows = countRows(text);
  if (rows === 0) return 'The file has a header but no numbers.';
  if (rows > MAX_UPLOAD_ROWS)
    return `The file has ${rows.toLocaleString('en-US')} numbers; a file takes at most ${MAX_UPLOAD_ROWS.toLocaleString('en-US')}; split it.`;
  return '';
}

/** Percent of the file sent, from an axios progress event. */
export function sentPercent(event: { loaded: number; total?: number | undefined } | null | undefined): number {
  if (!event?.total) return 0;
  return Math.min(100, Math.round((event.loaded / event.total) * 100));
}
