import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressRefusal, type TargetPolicy } from './target-address.js';

/** Resolves a host name to every address it has; the default asks the system resolver (`dns.lookup`). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/** A refused target: the error of the attempt (or of the creation request) says which address and why. */
export class TargetRefusedError extends Error {
  override name = 'TargetRefusedError';
  readonly code = 'ERR_WEBHOOK_TARGET_REFUSED';
}

/** Every address of `hostname`, or TargetRefusedError when any of them is one the policy refuses. */
export async function checkedAddresses(
  hostname: string,
  policy: TargetPolicy,
  resolver: Resolver,
): Promise<LookupAddress[]> {
  const addresses = await resolver(hostname);
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal !== null) throw new TargetRefusedError(`${hostname} resolves to ${refusal}`);
  }
  if (addresses.length === 0) throw new Error(`${hostname} has no address`);
  return addresses;
}

/**
 * The `lookup` of every connection a delivery opens: the name is resolved, every address checked, and the socket
 * connects to the checked addresses only, so a name that starts resolving to an internal address after the webhook
 * was created (DNS rebinding) is refused when it connects, with no window between the check and the connection.
 */
export function guardedLookup(policy: TargetPolicy, resolver: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    checkedAddresses(hostname, policy, resolver).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const matching = addresses.filter((entry) => wanted === 0 || entry.family === wanted);
        if (options.all) (callback as (error: null, all: LookupAddress[]) => void)(null, matching);
        else {
          const [first] = matching;
          if (first === undefined) callback(new Error(`${hostname} has no IPv${wanted} address`), '', 0);
          else callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
