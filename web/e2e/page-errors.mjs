// The uncaught errors of a page, which run.mjs's newPage keeps as `page.__errors`.
import assert from 'node:assert/strict';

/** No page of `pages` has thrown. */
export const noErrors = (...pages) => assert.deepEqual(pages.flatMap((p) => p.__errors || []), [], 'no page errors');
