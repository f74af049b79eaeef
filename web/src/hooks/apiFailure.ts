// What the screens read from a failed call: the spec §8 error the API client rejects with
// (src/api/client.ts ApiError). A rejection is `unknown` to TypeScript, so each part is checked.

export interface Failure {
  message?: string;
  code?: number;
  /** Field -> messages, on a 422 */
  errors?: Record<string, string[] | string>;
}

export function failureOf(err: unknown): Failure {
  if (!err || typeof err !== 'object') return {};
  const found: Failure = {};
  if ('message' in err && typeof err.message === 'string') found.message = err.message;
  if ('code' in err && typeof err.code === 'number') found.code = err.code;
  if ('errors' in err && err.errors && typeof err.errors === 'object')
    found.errors = err.errors as Record<string, string[] | string>; // the server's JSON (spec §8)
  return found;
}

/** The failure's message, or `fallback` when it has none. */
export function failureMessage(err: unknown, fallback: string): string {
  return failureOf(err).message || fallback;
}
