// Live calls: hanging one up (the list itself arrives over the live socket, store/liveSocket.js).
import client, { unwrap } from './client';

/** Resolves to {linkedid, ended}: ended is false while the PBX is still tearing the call down. */
export async function hangUpCall(linkedid) {
  return unwrap(await client.post('/report/callHangUp', { linkedid }));
}
