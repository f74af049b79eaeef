// Campaigns (spec §7 Campaigns) and the routing dry run.
import client, { unwrap } from './client';
import entityApi from './entity';

export const campaigns = entityApi('/campaign');

/** Where a call from `caller` to `did` would go now, and why (writes nothing). */
export async function dryRun(did, caller) {
  return unwrap(await client.post('/routing/dry-run', { did, caller }));
}
