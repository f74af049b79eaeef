// Stand-in types for utils/download.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/download.ts lands.
/** Hand a Blob to the browser as a download named `filename`. */
export declare function saveBlob(blob: Blob, filename: string): void;
/** One CSV column: its header and how a row gives its cell. */
export type CsvColumn<Row> = readonly [header: string, value: (row: Row) => unknown];
/** CSV text from `[header, value(row)]` columns, one line per row. */
export declare function toCsv<Row>(rows: readonly Row[], columns: readonly CsvColumn<Row>[]): string;
export declare function saveCsv(text: string, filename: string): void;
