import { checkedAddresses, type Resolver, systemResolver, TargetRefusedError } from './guarded-lookup.js';
import { addressRefusal, literalAddress, type TargetPolicy } from './target-address.js';

// A name that does not resolve in this time is let through at creation: the check at connection time still holds.
const creationLookupTimeoutMs = 3000;

/**
 * Why a webhook may not be created with `url`, or null when it may. Plain `http:` only where private targets are
 * allowed (the spec's pattern already limits it to loopback hosts). A name that does not resolve yet is accepted:
 * every connection checks the addresses again. Where private targets are allowed, names are not resolved here.
 */
export async function webhookUrlRefusal(
  url: string,
  policy: TargetPolicy,
  resolver: Resolver = systemResolver,
): Promise<string | null> {
  const parsed = new URL(url);
  // Deliveries go to the url's origin and path: credentials in it would never be sent
  // (x-webhook-delivery.targets.userInfo).
  if ((parsed.username !== '' || parsed.password !== '') && policy.userInfoAccepted !== true)
    // Stryker disable next-line StringLiteral: equivalent through the API, the reason only words the envelope's free-text message
    return 'it carries user information (user:password@), which deliveries never send; receivers authenticate a delivery by its signature';
  if (parsed.protocol !== 'https:' && !policy.allowPrivate)
    return 'plain http is allowed only for local testing; use https';
  const literal = literalAddress(parsed);
  if (literal !== null) return addressRefusal(literal, policy);
  if (policy.allowPrivate) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), creationLookupTimeoutMs);
  });
  try {
    await Promise.race([checkedAddresses(parsed.hostname, policy, resolver), timeout]);
    return null;
  } catch (error) {
    return error instanceof TargetRefusedError ? error.message : null;
  } finally {
    clearTimeout(timer);
  }
}
