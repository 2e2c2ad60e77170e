import type { Kysely } from 'kysely'
import type { Session, SessionList } from '../../../contract/security.ts'
import type { DB } from '../../infra/db/schema.ts'
import { DomainError } from '../failure.ts'
import type { OwnerSession } from '../owner.ts'
import { pageOf } from '../page.ts'
import * as repo from './security-repository.ts'
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
    const rows = await repo.listSessions(this.db, session, page)
    const data = rows.slice(0, page.limit).map((row) => this.toSession(row, session.sessionId))
    // A short page tells the total by itself; only a full one needs the count.
    const total =
      rows.length > page.limit || (rows.length === 0 && page.offset > 0)
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

  /** Ends every session but this one; answers how many ended. */
  endOthers(owner: OwnerSession): Promise<number> {
    return repo.revokeSessions(
      this.db,
      owner,
      { except: owner.sessionId },
      'signed_out_remotely',
      this.clock(),
    )
  }

  private toSession(row: SessionRow, currentId: string): Session {
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
    }
  }
}
