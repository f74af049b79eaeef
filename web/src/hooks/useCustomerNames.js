import { useEffect, useState } from 'react';
import { fetchUser } from '../api/customers';

// Names already read, kept for the session: lists show the same customers page after page.
const known = new Map();

/** `{id: name}` for the user ids of `rows` (admin lists), each read once; a failed read shows the id. */
export default function useCustomerNames(rows, enabled = true) {
  const [, setRead] = useState(0);
  const ids = enabled ? [...new Set(rows.map((r) => r.user_id).filter((id) => id != null))] : [];
  const missing = ids.filter((id) => !known.has(id)).join(',');

  useEffect(() => {
    if (!missing) return undefined;
    let alive = true;
    Promise.all(
      missing.split(',').map(async (id) => {
        try {
          known.set(Number(id), (await fetchUser(id)).name);
        } catch {
          known.set(Number(id), `#${id}`);
        }
      })
    ).then(() => alive && setRead((n) => n + 1));
    return () => {
      alive = false;
    };
  }, [missing]);

  return Object.fromEntries(ids.filter((id) => known.has(id)).map((id) => [id, known.get(id)]));
}
