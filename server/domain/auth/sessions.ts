import type { Kysely, Transaction } from 'kysely'
import type {
  Session,
  SessionCreation,
  SessionList,
  SessionsEnded,
} from '../../../contract/security.ts'
import type { DB } from '../../infra/db/schema.ts'
import { DomainError } from '../failure.ts'
import type { Owner, OwnerSession } from '../owner.ts'
import { pageOf } from '../page.ts'
import * as repo from './security-repository.ts'
import { createdBySessions, removeCreatedBySessions } from './session-footprint.ts'
import { describeDevice } from './webauthn-rules.ts'

/** SESSION_NOT_FOUND: no such live session of the person (ended already, or someone else's). */
export type SessionFailure = { kind: 'SESSION_NOT_FOUND' }

export class SessionError extends DomainError<SessionFailure> {}

type SessionRow = Awaited<ReturnType<typeof repo.listSessions>>[number]

/**
 * The person's signed-in sessions, and ending them. Ending a session revokes
 * it: its refresh-token family stops at once (refresh checks the session) and
 * so do its access tokens (auth/authenticate.ts checks the session on every call).
 */
export class SessionService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async list(session: OwnerSession, page: { limit: number; offset: number }): Promise<SessionList> {
    const fetched = await repo.listSessions(this.db, session, page)
    const rows = fetched.slice(0, page.limit)
    // What each session set up: three small reads by the page's ids.
    const created = await createdBySessions(
      this.db,
      session,
      rows.map((row) => row.id),
    )
    const data = rows.map((row) =>
      this.toSession(row, session.sessionId, created.get(row.id) ?? []),
    )
    // A short page tells the total by itself; only a full one needs the count.
    const total =
      fetched.length > page.limit || (fetched.length === 0 && page.offset > 0)
        ? await repo.countSessions(this.db, session)
        : page.offset + rows.length
    return pageOf(data, total, page)
  }

  /** @throws SessionError */
  async end(owner: OwnerSession, id: string): Promise<void> {
    const ended = await repo.revokeSessions(
      this.db,
      owner,
      { only: id },
      id === owner.sessionId ? 'signed_out' : 'signed_out_remotely',
      this.clock(),
    )
    if (ended === 0) throw new SessionError({ kind: 'SESSION_NOT_FOUND' })
  }

  /**
   * Ends every session but this one and, with `removeCreated`, in the same
   * transaction what those sessions set up that would go on watching or acting
   * for the person (session-footprint.ts): a thief signed out keeps nothing.
   */
  async endOthers(owner: OwnerSession, removeCreated: boolean): Promise<SessionsEnded> {
    return this.db
      .transaction()
      .execute((trx) => this.endOthersIn(trx, owner, owner.sessionId, { removeCreated }))
  }

  /**
   * endOthers inside the caller's transaction (a lockdown freezes the cards
   * in the same one): every session of the person but `keep` — all of them
   * when there is none to keep (a lockdown from a link, made signed out).
   */
  async endOthersIn(
    trx: Transaction<DB>,
    owner: Owner,
    keep: string | undefined,
    options: { removeCreated: boolean; reason?: string },
  ): Promise<SessionsEnded> {
    const now = this.clock()
    const ended = await repo.revokeSessionIds(
      trx,
      owner,
      keep === undefined ? 'all' : { except: keep },
      options.reason ?? 'signed_out_remotely',
      now,
    )
    const removed = options.removeCreated
      ? await removeCreatedBySessions(trx, owner, ended, now)
      : []
    return { ended: ended.length, removed }
  }

  private toSession(row: SessionRow, currentId: string, created: SessionCreation[]): Session {
    return {
      id: row.id,
      device: describeDevice(row.user_agent),
      app_env: row.app_env,
      // No IP-to-place database ships with the server (docs/decisions.md): the address itself.
      location: row.ip,
      ip: row.ip,
      sign_in_method: row.sign_in_method,
      new_device: row.new_device,
      created_at: row.created_at.toISOString(),
      last_seen_at: (row.last_seen_at ?? row.created_at).toISOString(),
      current: row.id === currentId,
      created,
    }
  }
}
