import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Lockdown, LockdownVia } from '../../../contract/lockdown.ts'
import type { DB } from '../../infra/db/schema.ts'
import { SessionService } from '../auth/sessions.ts'
import { emitEvent } from '../outbox.ts'
import type { Owner, OwnerSession } from '../owner.ts'
import { LockdownError } from './errors.ts'
import type { LinkChannel, LockdownLinks } from './links.ts'
import * as repo from './repository.ts'
import { liftAfter, lockdownDone, lockdownOf, mayLift } from './rules.ts'

/**
 * "That wasn't me" (issue 30). Starting a lockdown does at once, in one
 * transaction: every ACTIVE card FROZEN (marked as the lockdown's), every
 * other session ended (SessionService, as sign-out-others does), the
 * lockdown written and `security.lockdown` told. While it is on, the acts
 * route-policy.ts marks `refusedInLockdown` answer 409 LOCKDOWN_ACTIVE
 * (route-guards.ts). Lifting it needs the second look (the policy) and
 * LOCKDOWN_MIN_SECONDS; the cards stay frozen, to be unfrozen one by one.
 *
 * One tap on an alert starts it too: the alert's signed token (links.ts)
 * names the person, once. Made signed out, such a lockdown ends every
 * session: the tap cannot tell which of them is the person's own.
 */
export class LockdownService {
  readonly #sessions: SessionService

  constructor(
    private readonly db: Kysely<DB>,
    private readonly links: LockdownLinks,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.#sessions = new SessionService(db, clock)
  }

  async status(owner: Owner): Promise<Lockdown> {
    return lockdownOf(await repo.findActive(this.db, owner))
  }

  /** Starts one, from a session (kept: it is the person's) — or answers the one on already. */
  async start(owner: OwnerSession, reason: string | undefined): Promise<Lockdown> {
    return this.db
      .transaction()
      .execute((trx) => this.#start(trx, owner, { keep: owner.sessionId, via: 'app', reason }))
  }

  /**
   * Lifts the lockdown; the cards it froze stay frozen.
   * @throws LockdownError LOCKDOWN_NOT_ACTIVE, LOCKDOWN_TOO_EARLY
   */
  async lift(owner: OwnerSession): Promise<Lockdown> {
    const now = this.clock()
    return this.db.transaction().execute(async (trx) => {
      await repo.lockPerson(trx, owner)
      const active = await repo.findActive(trx, owner)
      if (!active) throw new LockdownError({ kind: 'LOCKDOWN_NOT_ACTIVE' })
      if (!mayLift(active.started_at, now)) {
        throw new LockdownError({
          kind: 'LOCKDOWN_TOO_EARLY',
          liftAfter: liftAfter(active.started_at),
        })
      }
      await repo.liftLockdown(trx, active.id, { sessionId: owner.sessionId, at: now })
      await emitEvent(trx, {
        ...owner,
        kind: 'security.lockdown',
        payload: {
          state: 'lifted',
          via: 'app',
          reason: active.reason,
          cards_frozen: active.cards_frozen,
          sessions_ended: active.sessions_ended,
        },
      })
      return lockdownOf(undefined)
    })
  }

  /**
   * One tap on an alert: the token's person is locked down (every session
   * ended), and the token is spent. `channel` is where the tap came from; a
   * token minted for another one is refused, and a Telegram tap must come
   * from the person's own chat. Answers what to tell them, in their language.
   * @throws LockdownError LOCKDOWN_LINK_INVALID (and then nobody is locked)
   */
  async tap(
    token: string,
    from: { channels: readonly LinkChannel[]; chatId?: string },
  ): Promise<{ message: string; tenantId: string }> {
    const now = this.clock()
    const invalid = (why: 'INVALID' | 'EXPIRED' | 'USED' | 'WRONG_CHAT') =>
      new LockdownError({ kind: 'LOCKDOWN_LINK_INVALID', why })
    const opened = this.links.open(token, now)
    if (opened === 'INVALID' || opened === 'EXPIRED') throw invalid(opened)
    if (!from.channels.includes(opened.channel)) throw invalid('INVALID')
    const person = await repo.findPerson(this.db, opened.userId)
    if (!person) throw invalid('INVALID')
    if (from.chatId !== undefined && person.telegram_id !== from.chatId) {
      throw invalid('WRONG_CHAT')
    }
    const owner = { tenantId: person.tenant_id, userId: person.id }
    await this.db.transaction().execute(async (trx) => {
      if (!(await repo.spendLink(trx, { nonce: opened.nonce, userId: person.id, at: now }))) {
        throw invalid('USED')
      }
      await this.#start(trx, owner, { keep: undefined, via: opened.channel, reason: undefined })
    })
    return {
      message: lockdownDone(person.language ?? 'en'),
      tenantId: person.tenant_id,
    }
  }

  async #start(
    trx: Transaction<DB>,
    owner: Owner,
    how: { keep: string | undefined; via: LockdownVia; reason: string | undefined },
  ): Promise<Lockdown> {
    const now = this.clock()
    // Two taps at once: the second waits here, then finds the first's lockdown.
    await repo.lockPerson(trx, owner)
    const active = await repo.findActive(trx, owner)
    if (active) {
      // Already on: a second tap still signs everyone else out, and tells nobody twice.
      await this.#sessions.endOthersIn(trx, owner, how.keep, { removeCreated: false })
      return lockdownOf(active)
    }
    const cardsFrozen = await repo.freezeCards(trx, owner, now)
    const { ended } = await this.#sessions.endOthersIn(trx, owner, how.keep, {
      removeCreated: false,
      reason: 'lockdown',
    })
    const reason = how.reason?.trim() || null
    const row = {
      ...owner,
      id: uuidv7(),
      reason,
      via: how.via,
      cardsFrozen,
      sessionsEnded: ended,
      at: now,
    }
    await repo.insertLockdown(trx, row)
    await emitEvent(trx, {
      ...owner,
      kind: 'security.lockdown',
      payload: {
        state: 'started',
        via: how.via,
        reason,
        cards_frozen: cardsFrozen,
        sessions_ended: ended,
      },
    })
    return lockdownOf({
      started_at: now,
      reason,
      via: how.via,
      cards_frozen: cardsFrozen,
      sessions_ended: ended,
    })
  }
}
