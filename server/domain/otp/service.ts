import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { TokenPair } from '../../../contract/auth.ts'
import type { OtpChannel, OtpPurpose, OtpSent } from '../../../contract/otp.ts'
import type { DB } from '../../infra/db/schema.ts'
import {
  MessageNotDeliveredError,
  type MessagingProvider,
} from '../../providers/messaging/messaging.ts'
import { maskEmail, maskPhone } from '../masks.ts'
import { contactJoined } from '../newcomers.ts'
import { emitEvent } from '../outbox.ts'
import type { Owner, OwnerSession } from '../owner.ts'
import type { RequestContext } from '../request-context.ts'
import type { Accounts } from './accounts.ts'
import { CodeHasher, generateCode } from './code-hash.ts'
import { OtpError, type OtpFailure } from './errors.ts'
import { composeMessage, type Language } from './messages.ts'
import * as repo from './repository.ts'
import {
  activeBlock,
  afterWrongCode,
  judgeCode,
  maskDestination,
  type OtpSettings,
  type Recipient,
  resendWait,
} from './rules.ts'

const CHANGE_PURPOSE: Record<OtpChannel, OtpPurpose> = {
  email: 'change_email',
  sms: 'change_phone',
}

/** The unique index that guards each identifier column of users (migration 0001). */
const UNIQUE_INDEX: Record<OtpChannel, string> = {
  email: 'users_tenant_email',
  sms: 'users_tenant_phone',
}

/**
 * One-time codes: signing in (and signing up) by e-mail or phone, and proving
 * a new e-mail or phone before it replaces the old one.
 *
 * Every send and every check runs under the attempt row lock of the
 * identifier and purpose (repository.lockAttempts): wrong codes, blocks and
 * the resend interval count per purpose, so what anyone may try at the
 * public calls (sign-in) never blocks what only a session reaches (step-up,
 * contact changes). A send commits its code *before* the message
 * leaves — no database transaction waits on a gateway — and deletes it again
 * if the message does not go, so a failed send leaves nothing usable.
 */
export class OtpService {
  readonly #hasher: CodeHasher

  constructor(
    private readonly db: Kysely<DB>,
    private readonly messaging: MessagingProvider,
    private readonly accounts: Accounts,
    private readonly settings: OtpSettings & { key: Uint8Array },
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.#hasher = new CodeHasher(settings.key)
  }

  /**
   * Sends a sign-in code. Unless `createUser` is false, an identifier without
   * an account gets a code too: the account is created when the code is used.
   * @throws OtpError USER_NOT_FOUND, OTP_BLOCKED, RATE_LIMITED, MESSAGE_NOT_DELIVERED
   */
  async sendSignInCode(
    context: RequestContext,
    recipient: Recipient,
    options: { createUser: boolean; language: Language | undefined },
  ): Promise<OtpSent> {
    const scope = { tenantId: context.tenantId, ...recipient }
    const user = await repo.findUserByIdentifier(this.db, scope)
    if (!user && !options.createUser) throw new OtpError({ kind: 'USER_NOT_FOUND' })
    return this.send(scope, {
      purpose: 'sign_in',
      userId: user?.id ?? null,
      language: options.language ?? user?.language ?? 'en',
    })
  }

  /**
   * Exchanges a sign-in code for a session; creates the account on its first use.
   * @throws OtpError OTP_BLOCKED, OTP_INVALID, OTP_EXPIRED, USER_BLOCKED
   */
  async verifySignIn(
    context: RequestContext,
    recipient: Recipient,
    token: string,
  ): Promise<TokenPair> {
    const scope = { tenantId: context.tenantId, ...recipient }
    return this.verify(scope, 'sign_in', token, undefined, async (trx) => {
      const userId = await this.signInUser(trx, scope)
      return this.accounts.startSession(trx, context, userId, 'otp')
    })
  }

  /**
   * First step of a contact change: sends a code to the new e-mail or phone.
   * @throws OtpError CONTACT_UNCHANGED, CONTACT_TAKEN, OTP_BLOCKED, RATE_LIMITED, MESSAGE_NOT_DELIVERED
   */
  async requestContactChange(owner: Owner, recipient: Recipient): Promise<OtpSent> {
    const scope = { tenantId: owner.tenantId, ...recipient }
    await this.ensureContactFree(this.db, owner, scope)
    return this.send(scope, {
      purpose: CHANGE_PURPOSE[recipient.channel],
      userId: owner.userId,
      language: (await repo.findUserLanguage(this.db, owner)) ?? 'en',
    })
  }

  /**
   * Second step: the code proves the new contact, which replaces the old one;
   * every other session of the account ends (whoever else was signed in may
   * be who the change is meant to lock out).
   * @throws OtpError CONTACT_UNCHANGED, CONTACT_TAKEN, OTP_BLOCKED, OTP_INVALID, OTP_EXPIRED
   */
  async confirmContactChange(
    session: OwnerSession,
    recipient: Recipient,
    token: string,
  ): Promise<void> {
    const scope = { tenantId: session.tenantId, ...recipient }
    const purpose = CHANGE_PURPOSE[recipient.channel]
    try {
      await this.verify(scope, purpose, token, session.userId, async (trx) => {
        await this.ensureContactFree(trx, session, scope)
        const now = this.clock()
        await repo.setContact(trx, session, recipient, now)
        await this.accounts.endOtherSessions(trx, session, 'contact_changed', now)
        await contactJoined(trx, session)
        await emitEvent(trx, {
          tenantId: session.tenantId,
          userId: session.userId,
          kind: 'security.contact_changed',
          payload: {
            contact: recipient.channel === 'email' ? 'email' : 'phone',
            masked:
              recipient.channel === 'email'
                ? maskEmail(recipient.identifier)
                : maskPhone(recipient.identifier),
          },
        })
      })
    } catch (error) {
      // The last guard: another account took the contact between the check and the update.
      if (repo.uniqueViolation(error) === UNIQUE_INDEX[recipient.channel]) {
        throw new OtpError({ kind: 'CONTACT_TAKEN', channel: recipient.channel })
      }
      throw error
    }
  }

  /**
   * The contact a step-up code goes to: the e-mail, else the phone; undefined
   * when the person has neither (a Telegram-only account).
   */
  async stepUpRecipient(owner: Owner): Promise<Recipient | undefined> {
    const email = await repo.findContact(this.db, owner, 'email')
    if (email) return { channel: 'email', identifier: email }
    const phone = await repo.findContact(this.db, owner, 'sms')
    return phone ? { channel: 'sms', identifier: phone } : undefined
  }

  /**
   * Sends a code that proves the person is present (a step-up), to their own
   * e-mail or phone; only their account may use it.
   * @throws OtpError NO_CONTACT, OTP_BLOCKED, RATE_LIMITED, MESSAGE_NOT_DELIVERED
   */
  async sendStepUpCode(owner: Owner): Promise<OtpSent> {
    const recipient = await this.stepUpRecipient(owner)
    if (!recipient) throw new OtpError({ kind: 'NO_CONTACT' })
    return this.send(
      { tenantId: owner.tenantId, ...recipient },
      {
        purpose: 'step_up',
        userId: owner.userId,
        language: (await repo.findUserLanguage(this.db, owner)) ?? 'en',
      },
    )
  }

  /**
   * Checks a step-up code and runs `onValid` (the stamp on the session) in
   * the same transaction.
   * @throws OtpError NO_CONTACT, OTP_BLOCKED, OTP_INVALID, OTP_EXPIRED
   */
  async verifyStepUpCode<T>(
    owner: Owner,
    token: string,
    onValid: (trx: Transaction<DB>) => Promise<T>,
  ): Promise<T> {
    const recipient = await this.stepUpRecipient(owner)
    if (!recipient) throw new OtpError({ kind: 'NO_CONTACT' })
    const scope = { tenantId: owner.tenantId, ...recipient }
    return this.verify(scope, 'step_up', token, owner.userId, onValid)
  }

  /**
   * Sends a password-reset code to the e-mail or phone an account signs in
   * with, in the account's language unless one is asked for. Answers whether
   * a code went: nothing goes to a contact no account has (or a blocked
   * account), and the caller answers the same either way.
   * @throws OtpError OTP_BLOCKED, RATE_LIMITED, MESSAGE_NOT_DELIVERED
   */
  async sendPasswordResetCode(
    tenantId: string,
    recipient: Recipient,
    language: Language | undefined,
  ): Promise<boolean> {
    const scope = { tenantId, ...recipient }
    const user = await repo.findUserByIdentifier(this.db, scope)
    if (!user || user.blocked_at) return false
    await this.send(scope, {
      purpose: 'password_reset',
      userId: user.id,
      language: language ?? user.language ?? 'en',
    })
    return true
  }

  /**
   * Checks a password-reset code and runs `onValid` with the account it was
   * sent for, in the same transaction. A contact no account has takes no code
   * (the guess still counts).
   * @throws OtpError OTP_BLOCKED, OTP_INVALID, OTP_EXPIRED
   */
  async verifyPasswordReset<T>(
    tenantId: string,
    recipient: Recipient,
    token: string,
    onValid: (trx: Transaction<DB>, owner: Owner) => Promise<T>,
  ): Promise<T> {
    const scope = { tenantId, ...recipient }
    const userId = (await repo.findUserByIdentifier(this.db, scope))?.id ?? null
    return this.verify(scope, 'password_reset', token, userId, (trx) =>
      // A code is good only for `userId`: here there is one.
      onValid(trx, { tenantId, userId: userId as string }),
    )
  }

  private async send(
    scope: repo.Scope,
    message: { purpose: OtpPurpose; userId: string | null; language: Language },
  ): Promise<OtpSent> {
    const now = this.clock()
    const id = uuidv7()
    const code = generateCode()
    await this.db.transaction().execute(async (trx) => {
      const attempts = await repo.lockAttempts(trx, scope, message.purpose)
      const blockedUntil = activeBlock(attempts, now)
      if (blockedUntil) throw new OtpError({ kind: 'OTP_BLOCKED', blockedUntil })
      const sentAt = await repo.lastSentAt(trx, scope, message.purpose)
      const wait = resendWait(sentAt, now, this.settings)
      if (wait > 0) throw new OtpError({ kind: 'RATE_LIMITED', retryAfter: wait })
      await repo.consumeLiveCodes(trx, scope, message.purpose, 'superseded', now)
      await repo.insertCode(trx, {
        ...scope,
        id,
        purpose: message.purpose,
        userId: message.userId,
        codeHash: this.#hasher.hash(id, code),
        expiresAt: new Date(now.getTime() + this.settings.ttl * 1000),
        now,
      })
    })

    const text = composeMessage({
      channel: scope.channel,
      purpose: message.purpose,
      code,
      language: message.language,
      ttlSeconds: this.settings.ttl,
    })
    try {
      await this.messaging.send({
        tenantId: scope.tenantId,
        channel: scope.channel,
        to: scope.identifier,
        purpose: message.purpose,
        code,
        language: message.language,
        ...text,
      })
    } catch (error) {
      // Whatever went wrong, a code nobody received must not stay usable,
      // nor hold the resend interval against the next try.
      await repo.deleteCode(this.db, id)
      if (error instanceof MessageNotDeliveredError) {
        throw new OtpError({ kind: 'MESSAGE_NOT_DELIVERED' })
      }
      throw error
    }

    return {
      channel: scope.channel,
      destination: maskDestination(scope),
      expires_in: this.settings.ttl,
      resend_in: this.settings.resendInterval,
    }
  }

  /**
   * Checks a code and, when it is good, spends it and runs `onValid` in the
   * same transaction. Wrong codes are counted and may block the identifier:
   * those writes must commit, so failures come out of the transaction as
   * values and are thrown after it. What `onValid` throws rolls everything
   * back, the spending of the code included.
   */
  private async verify<T>(
    scope: repo.Scope,
    purpose: OtpPurpose,
    token: string,
    /**
     * Only the code of this account is good (a contact change: the account
     * that asked; a reset: the account of the contact); null: no account, no
     * code; undefined: any (sign-in, which may create the account).
     */
    userId: string | null | undefined,
    onValid: (trx: Transaction<DB>) => Promise<T>,
  ): Promise<T> {
    const now = this.clock()
    const outcome = await this.db
      .transaction()
      .execute(async (trx): Promise<{ failure: OtpFailure } | { value: T }> => {
        const attempts = await repo.lockAttempts(trx, scope, purpose)
        const blockedUntil = activeBlock(attempts, now)
        if (blockedUntil) return { failure: { kind: 'OTP_BLOCKED', blockedUntil } }

        const found = await repo.findLiveCode(trx, scope, purpose)
        const live = found && (userId === undefined || found.user_id === userId) ? found : undefined
        const verdict = judgeCode(
          live && {
            expiresAt: live.expires_at,
            matches: this.#hasher.matches(live.id, token, live.code_hash),
          },
          now,
        )
        if (verdict === 'expired') return { failure: { kind: 'OTP_EXPIRED' } }
        if (verdict === 'wrong' || !live) {
          const next = afterWrongCode(attempts, now, this.settings)
          await repo.saveAttempts(trx, scope, purpose, next, now)
          if (next.blockedUntil) {
            // A block also ends the code already sent: after it, only a new code works.
            await repo.consumeLiveCodes(trx, scope, purpose, 'blocked', now)
            return { failure: { kind: 'OTP_BLOCKED', blockedUntil: next.blockedUntil } }
          }
          return { failure: { kind: 'OTP_INVALID', attemptsLeft: next.attemptsLeft } }
        }

        await repo.markCodeVerified(trx, live.id, now)
        if (attempts.failedAttempts > 0) {
          const cleared = { failedAttempts: 0, lastFailedAt: null, blockedUntil: null }
          await repo.saveAttempts(trx, scope, purpose, cleared, now)
        }
        return { value: await onValid(trx) }
      })
    if ('failure' in outcome) throw new OtpError(outcome.failure)
    return outcome.value
  }

  /** The account that signs in with the identifier, created now if it has none. */
  private async signInUser(trx: Transaction<DB>, scope: repo.Scope): Promise<string> {
    const existing = await repo.findUserByIdentifier(trx, scope)
    if (existing?.blocked_at) throw new OtpError({ kind: 'USER_BLOCKED' })
    if (existing) return existing.id
    const created = await repo.insertUser(trx, { ...scope, language: null })
    if (created) {
      await this.accounts.welcome(trx, { tenantId: scope.tenantId, userId: created })
      return created
    }
    // A password sign-up took the e-mail meanwhile: the code proves it is theirs, so sign that account in.
    return this.signInUser(trx, scope)
  }

  private async ensureContactFree(db: Kysely<DB>, owner: Owner, scope: repo.Scope) {
    const current = await repo.findContact(db, owner, scope.channel)
    if (current === scope.identifier) {
      throw new OtpError({ kind: 'CONTACT_UNCHANGED', channel: scope.channel })
    }
    if (await repo.findOtherOwner(db, scope, owner.userId)) {
      throw new OtpError({ kind: 'CONTACT_TAKEN', channel: scope.channel })
    }
  }
}
