// Buyers (spec §7 Buyers).
import client, { unwrap } from './client';
import entityApi from './entity';

export const buyers = entityApi('/buyer');

/** The signed-in buyer's own targets, with this hour's, today's and this month's calls. */
export async function fetchOwnTargets() {
  return unwrap(await client.get('/buyer/target')) ?? [];
}
