import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2'
import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { TokenPair } from '../../../contract/auth.ts'
import type { DB, SignInMethod } from '../../infra/db/schema.ts'
import type { RefreshOutcome } from '../../infra/metrics.ts'
import { contactJoined, type Welcome } from '../newcomers.ts'
import { normaliseEmail } from '../otp/rules.ts'
import { emitEvent } from '../outbox.ts'
import type { Owner, OwnerSession } from '../owner.ts'
import type { RequestContext } from '../request-context.ts'
import { recordSignInDevice } from './devices.ts'
import { AuthError } from './errors.ts'
import { judgePassword } from './password-policy.ts'
import * as repo from './repository.ts'
import { judgeRefresh } from './rules.ts'
import { revokeSessions } from './security-repository.ts'
import { Tokens } from './tokens.ts'

export interface AuthSettings {
  refreshTokenTtl: number
  refreshReuseGrace: number
}

/**
 * Verifying against this when the e-mail is unknown keeps "no such user" and
 * "wrong password" equally slow, so timing does not reveal who has an account.
 */
const DUMMY_HASH = argon2Hash('not-a-password-of-anyone')

export class AuthService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly tokens: Tokens,
    private readonly settings: AuthSettings,
    /** What a new account is given (the starter wallet), handed in by services.ts. */
    private readonly welcomeGift: Welcome,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** @throws AuthError PASSWORD_TOO_WEAK, EMAIL_TAKEN */
  async signUpWithPassword(
    context: RequestContext,
    input: { email: string; password: string },
  ): Promise<TokenPair> {
    const email = normaliseEmail(input.email)
    const verdict = judgePassword(input.password, { email })
    if (!verdict.ok) {
      throw new AuthError({ kind: 'PASSWORD_TOO_WEAK', reason: verdict.reason, field: 'password' })
    }
    // Hash before the transaction: argon2 is deliberately slow and must not hold the database.
    const passwordHash = await argon2Hash(input.password)
    return this.db.transaction().execute(async (trx) => {
      const userId = await repo.insertUserWithEmail(trx, {
        tenantId: context.tenantId,
        email,
        passwordHash,
      })
      if (!userId) throw new AuthError({ kind: 'EMAIL_TAKEN' })
      await this.welcome(trx, { tenantId: context.tenantId, userId })
      return this.startSession(trx, context, userId, 'password')
    })
  }

  /** @throws AuthError INVALID_CREDENTIALS, USER_BLOCKED (only with the right password) */
  async signInWithPassword(
    context: RequestContext,
    input: { email: string; password: string },
  ): Promise<TokenPair> {
    const user = await repo.findUserByEmail(this.db, context.tenantId, normaliseEmail(input.email))
    const valid = await argon2Verify(user?.password_hash ?? (await DUMMY_HASH), input.password)
    if (!user?.password_hash || !valid) throw new AuthError({ kind: 'INVALID_CREDENTIALS' })
    return this.db
      .transaction()
      .execute((trx) => this.startSession(trx, context, user.id, 'password'))
  }

  /**
   * Exchanges a refresh token for a new pair. Never throws for a bad token:
   * a reuse must *commit* the revocation, so failures come back as outcomes.
   * @throws AuthError USER_BLOCKED for a live token of a blocked user (nothing is written).
   */
  async refresh(
    tenantId: string,
    refreshToken: string,
  ): Promise<{ outcome: RefreshOutcome; pair?: TokenPair }> {
    const now = this.clock()
    return this.db.transaction().execute(async (trx) => {
      const row = await repo.findRefreshTokenForUpdate(trx, tenantId, Tokens.hash(refreshToken))
      const verdict = judgeRefresh(
        row && {
          expiresAt: row.expires_at,
          usedAt: row.used_at,
          sessionRevokedAt: row.session_revoked_at,
        },
        now,
        this.settings.refreshReuseGrace,
      )
      if (!row) return { outcome: 'invalid' as const }
      if (row.user_blocked_at && (verdict === 'current' || verdict === 'grace')) {
        throw new AuthError({ kind: 'USER_BLOCKED' })
      }
      const session = { tenantId, userId: row.user_id, sessionId: row.session_id }

      switch (verdict) {
        case 'current': {
          const next = await this.issueRefreshToken(trx, session, now)
          await repo.markRefreshTokenUsed(trx, row.id, next.id, now)
          await repo.touchSession(trx, row.session_id, now)
          return { outcome: 'rotated', pair: await this.pair(session, next.token, now) }
        }
        case 'grace': {
          const current = await repo.findCurrentRefreshToken(trx, row.session_id, now)
          if (!current) return { outcome: 'invalid' }
          const token = this.tokens.refreshTokenFor(current.id)
          return { outcome: 'grace', pair: await this.pair(session, token, now) }
        }
        case 'reuse':
          await repo.revokeSession(trx, row.session_id, 'refresh_token_reuse', now)
          return { outcome: 'reuse_revoked' }
        default:
          return { outcome: 'invalid' }
      }
    })
  }

  /** Ends the session the refresh token belongs to. Unknown tokens are ignored: sign-out always succeeds. */
  async signOut(tenantId: string, refreshToken: string): Promise<void> {
    const now = this.clock()
    await this.db.transaction().execute(async (trx) => {
      const row = await repo.findRefreshTokenForUpdate(trx, tenantId, Tokens.hash(refreshToken))
      if (row) await repo.revokeSession(trx, row.session_id, 'signed_out', now)
    })
  }

  /**
   * Everything a new account gets, in the transaction that creates it, whichever
   * way it signed up (password, a one-time code, Telegram): the handed-in
   * gift (the starter wallet) and the job for what waited for its contact.
   */
  async welcome(trx: Transaction<DB>, owner: Owner): Promise<void> {
    await this.welcomeGift(trx, owner)
    await contactJoined(trx, owner)
  }

  /** Ends every session of the account but `session` (a contact changed); answers how many. */
  endOtherSessions(
    trx: Transaction<DB>,
    session: OwnerSession,
    reason: string,
    now: Date,
  ): Promise<number> {
    return revokeSessions(trx, session, { except: session.sessionId }, reason, now)
  }

  /**
   * Opens a session for a user whose identity another use case has just
   * proved (password, one-time code, Telegram, passkey), inside that use
   * case's transaction, and returns its first token pair. It records the
   * device (devices.ts recordSignInDevice: `sessions.new_device`), and a
   * passkey sign-in starts the session stepped up.
   *
   * Every way in ends here, so this is where a blocked account is refused:
   * after the proof, so a stranger without the password never learns that
   * the account exists, let alone that it is blocked. A Telegram sign-in
   * passes when Telegram signed its launch data (`telegramAuthDate`).
   * @throws AuthError USER_BLOCKED
   */
  async startSession(
    trx: Transaction<DB>,
    context: RequestContext,
    userId: string,
    method: SignInMethod,
    telegramAuthDate?: Date,
  ): Promise<TokenPair> {
    if (await repo.isUserBlocked(trx, context.tenantId, userId)) {
      throw new AuthError({ kind: 'USER_BLOCKED' })
    }
    const now = this.clock()
    const device = await recordSignInDevice(trx, { ...context, userId }, now)
    const sessionId = await repo.insertSession(trx, {
      ...context,
      userId,
      method,
      deviceId: device.deviceId,
      newDevice: device.newDevice,
      now,
      telegramAuthDate,
    })
    if (device.newDevice) {
      await emitEvent(trx, {
        tenantId: context.tenantId,
        userId,
        kind: 'security.sign_in_new_device',
        payload: {
          session_id: sessionId,
          user_agent: context.userAgent?.slice(0, 512) ?? null,
          signed_in_at: now.toISOString(),
        },
      })
    }
    const session = { tenantId: context.tenantId, userId, sessionId }
    const refresh = await this.issueRefreshToken(trx, session, now)
    return this.pair(session, refresh.token, now)
  }

  private async issueRefreshToken(
    trx: Transaction<DB>,
    session: { tenantId: string; sessionId: string },
    now: Date,
  ) {
    const id = uuidv7()
    const token = this.tokens.refreshTokenFor(id)
    await repo.insertRefreshToken(trx, {
      id,
      tenantId: session.tenantId,
      sessionId: session.sessionId,
      hash: Tokens.hash(token),
      expiresAt: new Date(now.getTime() + this.settings.refreshTokenTtl * 1000),
    })
    return { id, token }
  }

  private async pair(session: OwnerSession, refreshToken: string, now: Date): Promise<TokenPair> {
    return {
      access_token: await this.tokens.issueAccess(session, now),
      refresh_token: refreshToken,
      token_type: 'bearer',
      expires_in: this.tokens.accessTtl,
    }
  }
}
