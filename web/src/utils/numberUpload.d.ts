// Stand-in types for utils/numberUpload.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/numberUpload.ts lands.
export declare const UPLOAD_COLUMNS: readonly string[];
/** Numbers per file; the server refuses more (its MAX_UPLOAD_ROWS setting, 100,000 by default). */
export declare const MAX_UPLOAD_ROWS = 100000;
/** Bytes per file; the server answers 413 above it. */
export declare const MAX_UPLOAD_BYTES = 10000000;
export declare const SAMPLE_CSV: string;
/** Data lines (not blank, after the header). */
export declare function countRows(text: string | null | undefined): number;
/** Why `file` (with its `text`) can't be sent, or '' when it can. */
export declare function uploadProblem(
  file: Pick<File, 'name' | 'size' | 'type'> | null | undefined,
  text: string | null | undefined
): string;
/** Percent of the file sent, from an axios progress event. */
export declare function sentPercent(
  event:
    | {
        loaded: number;
        total?: number | undefined;
      }
    | null
    | undefined
): number;
