import type { IConnectPacket } from 'mqtt-packet';
import { digest, sameSecret } from '../auth/secrets.js';
import type { StreamRow } from '../storage/rows.js';
import type { Store } from '../storage/store.js';
import type { ConnectRefusal } from './mqtt-codes.js';

export type DeviceAuthentication = { ok: true; stream: StreamRow } | { ok: false; refusal: ConnectRefusal };

/**
 * username = the stream's id, password = its streamKey, compared by digest in constant time. An unknown or deleted
 * stream and a wrong key get the same refusal, so a device learns nothing about which it was. Whether the stream is
 * already live is decided by the session registry, not here.
 */
export async function authenticateDevice(
  store: Store,
  connect: IConnectPacket,
): Promise<DeviceAuthentication> {
  if (connect.username === undefined || connect.password === undefined)
    return { ok: false, refusal: 'badCredentials' };
  const stream = await store.streams.getById(connect.username);
  if (stream === null) return { ok: false, refusal: 'notAuthorized' };
  if (!sameSecret(digest(connect.password.toString('utf8')), stream.streamKeyHash))
    return { ok: false, refusal: 'notAuthorized' };
  return { ok: true, stream };
}
