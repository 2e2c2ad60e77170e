import { hash as argon2Hash } from '@node-rs/argon2'
import type { Kysely } from 'kysely'
import { v5 as uuidv5 } from 'uuid'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { DB } from '../../infra/db/schema.ts'
import { judgePassword } from '../auth/password-policy.ts'
import { findUserByEmail, insertUserWithEmail } from '../auth/repository.ts'
import { ensureDefaultPrograms } from '../issuing/default-programs.ts'
import { approveForDemo } from '../kyc/service.ts'
import type { Owner } from '../owner.ts'
import { DEMO_EMAIL, DEMO_PERSON } from './demo-plan.ts'

/** The password policy's verdict on DEMO_PASSWORD; a refusal stops the start. */
export function checkDemoPassword(password: string) {
  const verdict = judgePassword(password, { email: DEMO_EMAIL })
  if (!verdict.ok) throw new Error(`DEMO_PASSWORD ${verdict.reason}`)
}

/**
 * The demo user signs up with DEMO_PASSWORD, at `at`: the account a person
 * makes on the sign-up screen, without the session it would open. Found by
 * its e-mail when it exists already. The demo tenant gets its card programs
 * first: the demo's fiat accounts open under them, whether or not the boot's
 * tenant seed ran.
 */
export async function joinDemo(db: Kysely<DB>, password: string, at: Date): Promise<Owner> {
  const tenantId = DEMO_TENANT_ID
  await ensureDefaultPrograms(db, tenantId)
  const found = await findUserByEmail(db, tenantId, DEMO_EMAIL)
  if (found) return { tenantId, userId: found.id }
  // Hashed before the transaction, as the sign-up does: argon2 is slow on purpose.
  const passwordHash = await argon2Hash(password)
  await db.transaction().execute(async (trx) => {
    const userId = await insertUserWithEmail(trx, { tenantId, email: DEMO_EMAIL, passwordHash })
    if (userId) {
      await trx.updateTable('users').set({ created_at: at }).where('id', '=', userId).execute()
    }
  })
  const user = await findUserByEmail(db, tenantId, DEMO_EMAIL)
  if (!user) throw new Error('the demo user was not created')
  return { tenantId, userId: user.id }
}

/**
 * The identity check the demo passed at `at`: her name, date of birth and
 * address in the profile, the verification the sandbox reviewer approved,
 * and APPROVED — so she can issue cards and withdraw (the KYC gates). A
 * profile that has a name already, an approved status, are left as they are.
 */
export async function verifyDemo(db: Kysely<DB>, owner: Owner, at: Date) {
  const { address, ...person } = DEMO_PERSON
  await db
    .updateTable('user_profiles')
    .set({ ...person, address: JSON.stringify(address) })
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('first_name', 'is', null)
    .execute()
  await db
    .insertInto('kyc_verifications')
    .values({
      // A name-based id: a second run finds the same row.
      id: uuidv5(`demo-seed:kyc:${owner.userId}`, DEMO_TENANT_ID),
      tenant_id: owner.tenantId,
      user_id: owner.userId,
      provider: 'sandbox',
      first_name: person.first_name,
      last_name: person.last_name,
      document_type: 'ID_CARD',
      country: address.country,
      status: 'APPROVED',
      submitted_at: at,
      decided_at: at,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
  await approveForDemo(db, owner, at)
}
