import type { Transaction } from 'kysely'
import type { TokenPair } from '../../../contract/auth.ts'
import type { DB, SignInMethod } from '../../infra/db/schema.ts'
import type { Owner, OwnerSession } from '../owner.ts'
import type { RequestContext } from '../request-context.ts'

/**
 * What codes need of the accounts and sessions the auth area keeps. Auth sits
 * above otp (its passwords and step-up ask for codes), so the composition root
 * hands AuthService in as this (services.ts).
 */
export interface Accounts {
  /** Opens the session a good sign-in code earns (AuthService.startSession). */
  startSession(
    trx: Transaction<DB>,
    context: RequestContext,
    userId: string,
    method: SignInMethod,
  ): Promise<TokenPair>
  /** Ends every session of the account but `session`; answers how many ended. */
  endOtherSessions(
    trx: Transaction<DB>,
    session: OwnerSession,
    reason: string,
    now: Date,
  ): Promise<number>
  /** Gives a new account what every newcomer gets, in the transaction that creates it. */
  welcome(trx: Transaction<DB>, owner: Owner): Promise<void>
}
