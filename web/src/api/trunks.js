// SIP trunks (spec §7 Trunks): admin only, but for the active outbound ones targets dial through.
import client, { unwrap } from './client';
import entityApi from './entity';

export const trunks = entityApi('/trunk');

/** Active outbound trunks `{id, name}`, for pickers. */
export async function fetchOutboundTrunks() {
  return unwrap(await client.get('/trunk/out'));
}
