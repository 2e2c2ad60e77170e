import type { Kysely, Transaction } from 'kysely'
import type { UserDataPatch } from '../../../contract/user.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'

type Executor = Kysely<DB> | Transaction<DB>

export function findUser(db: Executor, owner: Owner) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'phone', 'telegram_id', 'kyc_status', 'created_at'])
    .where('tenant_id', '=', owner.tenantId)
    .where('id', '=', owner.userId)
    .executeTakeFirst()
}

export type UserRow = NonNullable<Awaited<ReturnType<typeof findUser>>>

const USER_DATA = [
  'first_name',
  'last_name',
  'date_of_birth',
  'language',
  'address',
  'username',
  'photo_url',
  'is_premium',
  'people_discoverable',
  'updated_at',
] as const

export function findUserData(db: Executor, owner: Owner) {
  return db
    .selectFrom('user_profiles')
    .select(USER_DATA)
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .executeTakeFirst()
}

/**
 * The country of the saved address (undefined: none saved), the row locked
 * FOR UPDATE so the check against it holds until the change is written.
 */
export async function lockSavedCountry(trx: Transaction<DB>, owner: Owner) {
  const row = await trx
    .selectFrom('user_profiles')
    .select('address')
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .forUpdate()
    .executeTakeFirst()
  return row?.address?.country
}

/** Sets the fields present in `changes` (undefined ones are left alone) and bumps updated_at. */
export function updateUserData(db: Executor, owner: Owner, changes: UserDataPatch, now: Date) {
  const { address, ...rest } = changes
  return db
    .updateTable('user_profiles')
    .set({
      ...rest,
      // jsonb goes in as JSON text; undefined leaves the column as it is.
      address: address === undefined ? undefined : address && JSON.stringify(address),
      updated_at: now,
    })
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .returning(USER_DATA)
    .executeTakeFirst()
}
