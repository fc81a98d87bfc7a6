import type { Account } from '../../generated/types/schemas.js';
import { problem } from '../problems.js';
import type { AccountRow } from '../storage/rows.js';
import type { ServiceContext } from './context.js';

export function accountObject(row: AccountRow): Account {
  return {
    id: row.id,
    object: 'account',
    plan: row.plan as Account['plan'],
    defaultRegion: row.defaultRegion,
    createdAt: row.createdAt,
  };
}

export async function requireAccount(
  context: Pick<ServiceContext, 'store' | 'accountId'>,
): Promise<AccountRow> {
  const row = await context.store.accounts.get(context.accountId);
  if (row === null) throw problem('resource_missing', 'The account of this credential no longer exists.');
  return row;
}
