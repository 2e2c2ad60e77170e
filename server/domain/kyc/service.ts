import { createHash } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { KycStatus } from '../../../contract/enums.ts'
import type {
  KycStatusReply,
  KycStatusSource,
  KycToken,
  KycWebhookReply,
  SandboxApplicantBody,
} from '../../../contract/kyc.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Job, JobContext, JobResult, JobRunner } from '../../infra/jobs.ts'
import { isUuid } from '../../infra/uuid.ts'
import type { KycConfig } from '../../kyc-config.ts'
import type { KycProvider, KycProviderEvent } from '../../providers/kyc/kyc.ts'
import { emitEvent } from '../outbox.ts'
import type { Owner } from '../owner.ts'
import { serves } from '../tenants/rules.ts'
import { KycError } from './errors.ts'
import * as repo from './repository.ts'
import { canRetry, isStale, sandboxRuling, submissionRefusal, tokenRefusal } from './rules.ts'

/** The job that decides a sandbox submission by the rules once SANDBOX_KYC_MS has passed. */
export const SANDBOX_REVIEW_JOB = 'kyc.sandbox_review'

const HISTORY_LIMIT = 50

type Trx = Transaction<DB>

interface Move {
  status: KycStatus
  reason?: string | undefined
  source: KycStatusSource
  occurredAt: Date
}

/**
 * Identity verification: where a person stands, the provider's SDK token,
 * the sandbox's submissions and decisions, and the provider's webhooks.
 *
 * users.kyc_status is the one status the gates read (gate.ts). Every change
 * happens in a transaction holding the user's row FOR UPDATE, writes a
 * history entry, and carries the open verification (PENDING or HOLD) along.
 */
export class KycService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly provider: KycProvider,
    private readonly jobs: Pick<JobRunner, 'enqueue'>,
    private readonly settings: Pick<
      KycConfig,
      'levelName' | 'tokenTtlSeconds' | 'sandboxDecisionMs' | 'sandboxDecides'
    >,
  ) {}

  /** @throws KycError USER_NOT_FOUND */
  async status(owner: Owner): Promise<KycStatusReply> {
    const row = await repo.findStatus(this.db, owner)
    if (!row) throw new KycError({ kind: 'USER_NOT_FOUND' })
    const history = await repo.listHistory(this.db, owner, HISTORY_LIMIT)
    return {
      status: row.kyc_status,
      can_retry: canRetry(row.kyc_status),
      provider: this.provider.name,
      history: history.map((entry) => ({
        status: entry.status,
        at: entry.occurred_at.toISOString(),
        ...(entry.reason !== null && { reason: entry.reason }),
      })),
    }
  }

  /**
   * An access token for the provider's SDK. Refused once the verification is
   * finished (APPROVED) or finally refused (REJECT, DOUBLE).
   * @throws KycError USER_NOT_FOUND, KYC_ALREADY_APPROVED, KYC_FINAL; KycProviderError
   */
  async token(owner: Owner): Promise<KycToken> {
    const row = await repo.findStatus(this.db, owner)
    if (!row) throw new KycError({ kind: 'USER_NOT_FOUND' })
    const refusal = tokenRefusal(row.kyc_status)
    if (refusal) throw new KycError({ kind: refusal, status: row.kyc_status })
    this.#requireProvider()
    const token = await this.provider.accessToken({
      userId: owner.userId,
      levelName: this.settings.levelName,
      ttlSeconds: this.settings.tokenTtlSeconds,
    })
    return {
      token: token.token,
      level_name: this.settings.levelName,
      provider: this.provider.name,
      expires_at: token.expiresAt.toISOString(),
    }
  }

  /**
   * The sandbox screen's submission: PENDING now, decided by the rules after
   * SANDBOX_KYC_MS unless the sandbox operator decides first.
   * @throws KycError PROVIDER_MISMATCH, USER_NOT_FOUND, KYC_IN_REVIEW, KYC_ALREADY_APPROVED, KYC_FINAL,
   *   COUNTRY_NOT_SUPPORTED (a country outside the tenant's supported_countries)
   */
  async submitSandboxApplicant(
    owner: Owner,
    body: SandboxApplicantBody,
    now = new Date(),
  ): Promise<KycStatusReply> {
    if (this.provider.name !== 'sandbox') {
      throw new KycError({ kind: 'PROVIDER_MISMATCH', provider: this.provider.name })
    }
    this.#requireProvider()
    await this.db.transaction().execute(async (trx) => {
      const user = await repo.lockUser(trx, owner)
      if (!user) throw new KycError({ kind: 'USER_NOT_FOUND' })
      const refusal = submissionRefusal(user.kyc_status)
      if (refusal) throw new KycError({ kind: refusal, status: user.kyc_status })
      const supported = await repo.supportedCountries(trx, owner.tenantId)
      if (supported && !serves(supported, body.country)) {
        throw new KycError({ kind: 'COUNTRY_NOT_SUPPORTED', country: body.country, supported })
      }
      const id = uuidv7()
      await repo.insertVerification(trx, owner, {
        id,
        provider: 'sandbox',
        status: 'PENDING',
        submittedAt: now,
        applicant: {
          firstName: body.first_name.trim(),
          lastName: body.last_name.trim(),
          documentType: body.document_type,
          country: body.country,
        },
      })
      await writeStatus(trx, owner, user.kyc_status, {
        status: 'PENDING',
        source: 'applicant',
        occurredAt: now,
      })
      await this.jobs.enqueue(trx, {
        kind: SANDBOX_REVIEW_JOB,
        tenantId: owner.tenantId,
        payload: { verification_id: id },
        runAt: new Date(now.getTime() + this.settings.sandboxDecisionMs),
      })
    })
    return this.status(owner)
  }

  /**
   * The sandbox's rules deciding a submission still PENDING. Gated on that
   * status, so a run repeated after a crash, or after the operator decided,
   * changes nothing.
   */
  readonly sandboxReview = async (job: Job, context: JobContext): Promise<JobResult> => {
    const verificationId = String(job.payload.verification_id ?? '')
    if (!job.tenantId || !this.settings.sandboxDecides) return undefined
    const tenantId = job.tenantId
    await this.db.transaction().execute(async (trx) => {
      const verification = await repo.findVerification(trx, tenantId, verificationId)
      if (verification?.status !== 'PENDING') return
      const owner = { tenantId, userId: verification.user_id }
      const user = await repo.lockUser(trx, owner)
      if (user?.kyc_status !== 'PENDING') return
      const ruling = sandboxRuling({
        firstName: verification.first_name ?? '',
        lastName: verification.last_name ?? '',
      })
      await this.#move(trx, owner, user.kyc_status, {
        status: ruling.status,
        reason: ruling.reason,
        source: 'sandbox_rules',
        occurredAt: context.now,
      })
    })
    return undefined
  }

  /**
   * The sandbox operator's decision for the signed-in person, whatever the
   * status was: it plays the provider's reviewer (and can take an approval
   * back, to try the gates). The same status again changes nothing.
   * @throws KycError USER_NOT_FOUND
   */
  async decide(
    owner: Owner,
    decision: { status: KycStatus; reason?: string | undefined },
    now = new Date(),
  ): Promise<KycStatusReply> {
    await this.db.transaction().execute(async (trx) => {
      const user = await repo.lockUser(trx, owner)
      if (!user) throw new KycError({ kind: 'USER_NOT_FOUND' })
      await this.#move(trx, owner, user.kyc_status, {
        status: decision.status,
        reason: decision.reason,
        source: 'sandbox_decision',
        occurredAt: now,
      })
    })
    return this.status(owner)
  }

  /**
   * A provider's webhook, already checked to be the provider's. Each event
   * counts once (its key is the digest of its raw body: a redelivery is the
   * same bytes); an event older than the last one applied is kept but moves
   * nothing; an event of no one we know, or that moves no status, is ignored.
   */
  async receiveWebhook(rawBody: Buffer, event: KycProviderEvent): Promise<KycWebhookReply> {
    const eventKey = createHash('sha256').update(rawBody).digest('hex')
    const userId =
      event.externalUserId && isUuid(event.externalUserId) ? event.externalUserId : undefined
    const user = userId ? await repo.findUserById(this.db, userId) : undefined
    return this.db.transaction().execute(async (trx) => {
      const fresh = await repo.claimWebhookEvent(trx, {
        event_key: eventKey,
        tenant_id: user?.tenant_id ?? null,
        user_id: user?.id ?? null,
        type: event.type,
        occurred_at: event.occurredAt ?? null,
        outcome: 'ignored',
      })
      if (!fresh) return { outcome: 'duplicate' as const }
      if (!user || event.status === undefined) return { outcome: 'ignored' as const }
      const owner = { tenantId: user.tenant_id, userId: user.id }
      const locked = await repo.lockUser(trx, owner)
      if (!locked) return { outcome: 'ignored' as const }
      if (isStale(event.occurredAt, await repo.lastWebhookAt(trx, owner))) {
        await repo.setWebhookOutcome(trx, eventKey, 'stale')
        return { outcome: 'stale' as const }
      }
      await this.#move(trx, owner, locked.kyc_status, {
        status: event.status,
        reason: event.reason,
        source: 'webhook',
        occurredAt: event.occurredAt ?? new Date(),
      })
      await repo.setWebhookOutcome(trx, eventKey, 'applied')
      return { outcome: 'applied' as const }
    })
  }

  /**
   * A production deployment with no real provider (the sandbox one standing in,
   * its rules off: KycConfig.sandboxDecides) verifies nobody: it opens no flow.
   * @throws KycError PROVIDER_MISMATCH
   */
  #requireProvider() {
    if (this.provider.name === 'sandbox' && !this.settings.sandboxDecides) {
      throw new KycError({ kind: 'PROVIDER_MISMATCH', provider: 'sandbox', unconfigured: true })
    }
  }

  /**
   * Moves the status (the user's row already locked by the caller), writes
   * the history, and carries the open verification along: a provider's
   * PENDING with none open opens one. An approval fills the profile's empty
   * names with the verified ones.
   */
  async #move(trx: Trx, owner: Owner, from: KycStatus, move: Move) {
    if (move.status === from) return
    await writeStatus(trx, owner, from, move)
    // The verified name greets the person ("Hello, Anna") unless they named themselves already.
    if (move.status === 'APPROVED') {
      const name = await repo.verifiedName(trx, owner)
      if (name) await repo.fillProfileName(trx, owner, name)
    }
    const open = await repo.findOpenVerification(trx, owner)
    const stillOpen = move.status === 'PENDING' || move.status === 'HOLD'
    if (open) {
      await repo.updateVerification(trx, open.id, {
        status: move.status,
        decidedAt: stillOpen ? null : move.occurredAt,
      })
    } else if (move.status === 'PENDING') {
      await repo.insertVerification(trx, owner, {
        id: uuidv7(),
        provider: this.provider.name,
        status: 'PENDING',
        submittedAt: move.occurredAt,
      })
    }
  }
}

/** Sets the person's status (their row locked by the caller) and writes its history entry. */
async function writeStatus(trx: Trx, owner: Owner, from: KycStatus, move: Move) {
  await repo.setStatus(trx, owner, move.status, move.occurredAt)
  if (move.source !== 'seed' && from !== move.status) {
    await emitEvent(trx, {
      ...owner,
      kind: 'kyc.status_changed',
      payload: { status: move.status, previous_status: from, reason: move.reason ?? null },
    })
  }
  await repo.insertHistory(trx, owner, {
    status: move.status,
    reason: move.reason ?? null,
    source: move.source,
    occurredAt: move.occurredAt,
  })
}

/**
 * The demo user is verified from the start (sandbox only). Idempotent: an
 * APPROVED user is left as they are.
 */
export async function approveForDemo(db: Kysely<DB>, owner: Owner, now = new Date()) {
  await db.transaction().execute(async (trx) => {
    const user = await repo.lockUser(trx, owner)
    if (!user || user.kyc_status === 'APPROVED') return
    await writeStatus(trx, owner, user.kyc_status, {
      status: 'APPROVED',
      source: 'seed',
      occurredAt: now,
    })
  })
}
