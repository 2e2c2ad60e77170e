import type { Kysely } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'

export interface Owner {
  tenantId: string
  userId: string
}

export function findUser(db: Kysely<DB>, owner: Owner) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'phone', 'telegram_id', 'kyc_status', 'created_at'])
    .where('tenant_id', '=', owner.tenantId)
    .where('id', '=', owner.userId)
    .executeTakeFirst()
}

export function findUserData(db: Kysely<DB>, owner: Owner) {
  return db
    .selectFrom('user_profiles')
    .select([
      'first_name',
      'last_name',
      'date_of_birth',
      'language',
      'address',
      'username',
      'photo_url',
      'is_premium',
      'updated_at',
    ])
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .executeTakeFirst()
}
