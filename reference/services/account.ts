import type { Account } from '../../generated/types/schemas.js';
import type { AccountRow } from '../storage/rows.js';

export function accountObject(row: AccountRow): Account {
  return {
    id: row.id,
    object: 'account',
    plan: row.plan as Account['plan'],
    defaultRegion: row.defaultRegion,
    createdAt: row.createdAt,
  };
}
