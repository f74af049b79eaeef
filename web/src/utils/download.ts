/** Hand a Blob to the browser as a download named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  // Freed once the browser has taken the file (revoking at once can cancel the download).
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** One CSV cell: quoted when it holds a comma, quote or line break. */
function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV column: its header and how a row gives its cell. */
export type CsvColumn<Row> = readonly [header: string, value: (row: Row) => unknown];

/** CSV text from `[header, value(row)]` columns, one line per row. */
export function toCsv<Row>(rows: readonly Row[], columns: readonly CsvColumn<Row>[]): string {
  const lines = [columns.map(([header]) => csvCell(header)).join(',')];
  for (const row of rows) lines.push(columns.map(([, value]) => csvCell(value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function saveCsv(text: string, filename: string): void {
  saveBlob(new Blob([text], { type: 'text/csv;charset=utf-8' }), filename);
}
