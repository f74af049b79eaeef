import { useEffect, useState } from 'react';
import { call } from '../api/client';
import { usersOne } from '../client';

// Names already read, kept for the session: lists show the same customers page after page.
const known = new Map<number, string>();

/** `{id: name}` for the user ids of `rows` (admin lists), each read once; a failed read shows the id. */
export default function useCustomerNames(
  rows: ReadonlyArray<{ user_id?: number | null }>,
  enabled = true
): Record<number, string> {
  const [, setRead] = useState(0);
  const ids = enabled ? [...new Set(rows.map((r) => r.user_id).filter((id): id is number => id != null))] : [];
  const missing = ids.filter((id) => !known.has(id)).join(',');

  useEffect(() => {
    if (!missing) return undefined;
    let alive = true;
    void Promise.all(
      missing.split(',').map(async (id) => {
        try {
          known.set(Number(id), (await call(usersOne({ path: { id: Number(id) } }))).name);
        } catch {
          known.set(Number(id), `#${id}`);
        }
      })
    ).then(() => alive && setRead((n) => n + 1));
    return () => {
      alive = false;
    };
  }, [missing]);

  const names: Record<number, string> = {};
  for (const id of ids) {
    const name = known.get(id);
    if (name !== undefined) names[id] = name;
  }
  return names;
}
