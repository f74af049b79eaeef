// The API as the browser scenarios call it to check what a screen did.

/**
 * `api(role, method, path, body)`: a call to the API as `role` (signed in already, its token in
 * `sessions`), answering `{status, data, message}`.
 */
export function apiAs(BASE, sessions) {
  return async function api(role, method, path, body) {
    const res = await fetch(`${BASE}/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${sessions[role].token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body)
    });
    const json = await res.json().catch(() => ({}));
    return { status: res.status, data: json.data, message: json.message };
  };
}
