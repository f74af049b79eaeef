// The API as the browser scenarios call it to check what a screen did.

/**
 * An answer of the API (spec §8's envelope). `data` is JSON off the wire, read by each scenario as
 * the spec describes that path and asserted field by field: it stays the `any` of `Response.json()`
 * rather than a hand-written copy of every answer's shape.
 * @typedef {{ status: number, data: any, message: string | undefined }} ApiAnswer
 */

/**
 * `api(role, method, path, body)`: a call to the API as `role` (signed in already, its token in
 * `sessions`), answering `{status, data, message}`.
 * @param {string} BASE the portal's URL
 * @param {Record<string, { token: string }>} sessions the signed-in roles' tokens
 */
export function apiAs(BASE, sessions) {
  /**
   * @param {string} role
   * @param {'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} method
   * @param {string} path under /api
   * @param {unknown} [body] sent as JSON
   * @returns {Promise<ApiAnswer>}
   */
  return async function api(role, method, path, body) {
    const session = sessions[role];
    if (!session) throw new Error(`${role} is not signed in`);
    const res = await fetch(`${BASE}/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${session.token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body)
    });
    const json = await res.json().catch(() => ({}));
    return { status: res.status, data: json.data, message: json.message };
  };
}
