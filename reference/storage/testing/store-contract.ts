import { describeBehaviourCases } from './contract/behaviour-cases.js';
import type { ContractContext } from './contract/context.js';
import { describeDeliveryClaimCases } from './contract/delivery-claim-cases.js';
import { describeLookupCases } from './contract/lookup-cases.js';
import { describeOAuthCases } from './contract/oauth-cases.js';
import { describePaginationCases } from './contract/pagination-cases.js';
import { describeResourceCases } from './contract/resource-cases.js';

export type { ContractContext } from './contract/context.js';

/**
 * The cases every Store implementation must pass. They share one open store: each case works in accounts of its
 * own, so cases neither see nor disturb each other's rows and the backend starts only once.
 */
export function describeStoreContract(context: ContractContext): void {
  describeResourceCases(context);
  describeLookupCases(context);
  describePaginationCases(context);
  describeOAuthCases(context);
  describeBehaviourCases(context);
  describeDeliveryClaimCases(context);
}
