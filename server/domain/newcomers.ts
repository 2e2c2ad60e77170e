import type { Transaction } from 'kysely'
import type { DB } from '../infra/db/schema.ts'
import { enqueue } from '../infra/jobs.ts'
import type { Owner } from './owner.ts'

/**
 * The job a person's new contact starts: a sign-up (by password, a one-time
 * code or Telegram) or a confirmed change of e-mail or phone. Identity knows
 * nothing of what waits for a contact; money movement does (a transfer sent
 * to it before it had an account, transfers/claims.ts) and registers the
 * handler. The job is the event a lower layer writes for a higher one.
 */
export const CONTACT_JOINED_JOB = 'people.contact_joined'

/**
 * What a new account is given in the transaction that creates it: the starter
 * wallet (wallets/starter-wallet.ts). Identity sits below the accounts, so the
 * composition root hands it in (services.ts); AuthService.welcome runs it for
 * every way of signing up.
 */
export type Welcome = (trx: Transaction<DB>, owner: Owner) => Promise<unknown>

/** Enqueues CONTACT_JOINED_JOB in the caller's transaction: it exists if the account (or contact) does. */
export async function contactJoined(trx: Transaction<DB>, owner: Owner): Promise<void> {
  await enqueue(trx, {
    kind: CONTACT_JOINED_JOB,
    tenantId: owner.tenantId,
    payload: { user_id: owner.userId },
  })
}
