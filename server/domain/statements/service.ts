import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { statementLanguageFor } from '../../../contract/statement-languages.ts'
import type {
  CreateStatementBody,
  Statement,
  StatementLanguage,
  StatementLink,
  StatementVerification,
} from '../../../contract/statements.ts'
import { STATEMENT_LINK_SECONDS } from '../../../contract/statements.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Job, JobContext, JobResult, JobRunner } from '../../infra/jobs.ts'
import type { BankingProvider } from '../../providers/banking/banking.ts'
import { canonicalHash } from '../idempotency.ts'
import type { Owner } from '../owner.ts'
import { StatementError } from './errors.ts'
import { renderStatementCsv, renderStatementJson } from './render-data.ts'
import { renderStatementPdf } from './render-pdf.ts'
import * as repo from './repository.ts'
import { checkPeriod, initialsOf, statementCode, statementFileName } from './rules.ts'
import {
  holderLines,
  type StatementDocument,
  type StatementScopeRef,
  scopeLedger,
  statementSections,
  tenantLogo,
} from './statement-data.ts'
import { periodDays } from './wording.ts'

/** A link token is stored as its hash: the database alone cannot download anything. */
const linkHash = (token: string) => createHash('sha256').update(token).digest('hex')

/** The job that renders a statement (one run: read, render, store). */
export const STATEMENT_JOB = 'statement.render'
/** Tries before a statement is given up on as failed (the runner's backoff spaces them). */
const MAX_ATTEMPTS = 5

const CONTENT_TYPES = {
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
} as const

export interface StatementSettings {
  /** Where the verify link on the file points (PUBLIC_URL). */
  publicUrl: string
  /** The built app: the tenant's logo is read from it. */
  distDir: string
}

/** What the renderer hears as it goes, and what the request answers. */
const toStatement = (row: repo.StatementRow): Statement => ({
  id: row.id,
  status: row.status,
  progress: row.progress,
  scope: { type: row.scope_type, id: row.scope_id },
  from: row.period_from.toISOString(),
  to: row.period_to.toISOString(),
  format: row.format,
  language: row.language,
  time_zone: row.time_zone,
  code: row.code,
  sha256: row.sha256,
  file_name: row.file_name,
  size: row.size === null ? null : Number(row.size),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})

const scopeOf = (body: CreateStatementBody['scope']): StatementScopeRef =>
  'wallet_uuid' in body
    ? { type: 'wallet', id: body.wallet_uuid }
    : 'fiat_account_id' in body
      ? { type: 'fiat_account', id: body.fiat_account_id }
      : { type: 'card', id: body.card_id }

const NOT_FOUND = {
  wallet: 'WALLET_NOT_FOUND',
  fiat_account: 'FIAT_ACCOUNT_NOT_FOUND',
  card: 'CARD_NOT_FOUND',
} as const

/**
 * Statements: asked for by their owner, rendered by a job from the ledger and
 * the activity feed, kept in the database, downloaded by their owner only,
 * and checked by anyone who has the code, the file or its hash.
 */
export class StatementService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly jobs: Pick<JobRunner, 'enqueue'>,
    private readonly bank: Pick<BankingProvider, 'bic' | 'bankName'>,
    private readonly settings: StatementSettings,
  ) {}

  /**
   * Queues a statement of the owner's wallet, account or card. The same
   * request_id with the same body answers the first one again.
   * @throws StatementError INVALID_PERIOD, WALLET_NOT_FOUND, FIAT_ACCOUNT_NOT_FOUND,
   *   CARD_NOT_FOUND, IDEMPOTENCY_CONFLICT
   */
  async request(
    owner: Owner,
    body: CreateStatementBody,
    idempotencyKey: string | undefined,
    now = new Date(),
  ): Promise<Statement> {
    const period = {
      from: new Date(body.from),
      to: new Date(body.to),
      timeZone: body.time_zone ?? 'UTC',
    }
    checkPeriod(period, now, { from: '/body/from', to: '/body/to', timeZone: '/body/time_zone' })
    const scope = scopeOf(body.scope)
    const hash = canonicalHash({ ...body, request_id: undefined, scope })
    if (idempotencyKey) {
      const earlier = await repo.findByRequest(this.db, owner, idempotencyKey)
      if (earlier) {
        if (earlier.request_hash !== hash)
          throw new StatementError({ kind: 'IDEMPOTENCY_CONFLICT' })
        return toStatement(earlier)
      }
    }
    const holder = await repo.holderOf(this.db, owner.userId)
    const language: StatementLanguage =
      body.language ?? statementLanguageFor(holder?.language ?? 'en')
    const ledger = await scopeLedger(this.db, owner, scope, language, this.bank)
    if (!ledger) throw new StatementError({ kind: NOT_FOUND[scope.type] })

    const id = uuidv7()
    const inserted = await this.db.transaction().execute(async (trx) => {
      // A code already taken (one in 2^60) is drawn again.
      for (let attempt = 0; attempt < 3; attempt++) {
        const row = {
          id,
          tenant_id: owner.tenantId,
          user_id: owner.userId,
          scope_type: scope.type,
          scope_id: scope.id,
          period_from: period.from,
          period_to: period.to,
          format: body.format,
          language,
          time_zone: period.timeZone,
          status: 'queued' as const,
          code: statementCode(randomBytes(12)),
          holder_initials: initialsOf(holder?.first_name ?? null, holder?.last_name ?? null),
          account_last4: ledger.last4,
          request_id: idempotencyKey ?? null,
          request_hash: hash,
          created_at: now,
          updated_at: now,
        }
        if (await repo.insertStatement(trx, row)) {
          await this.jobs.enqueue(trx, {
            kind: STATEMENT_JOB,
            tenantId: owner.tenantId,
            payload: { statement_id: id },
          })
          return true
        }
      }
      return false
    })
    if (!inserted) throw new Error('no free statement code after three draws')
    return this.get(owner, id)
  }

  /** @throws StatementError STATEMENT_NOT_FOUND, also for another person's */
  async get(owner: Owner, id: string): Promise<Statement> {
    const row = await repo.findStatement(this.db, owner, id)
    if (!row) throw new StatementError({ kind: 'STATEMENT_NOT_FOUND' })
    return toStatement(row)
  }

  /**
   * The rendered file, its name, type and language.
   * @throws StatementError STATEMENT_NOT_FOUND, STATEMENT_NOT_READY
   */
  async file(owner: Owner, id: string) {
    const row = await repo.findFile(this.db, owner, id)
    if (!row) throw new StatementError({ kind: 'STATEMENT_NOT_FOUND' })
    if (row.status !== 'ready' || !row.file) {
      throw new StatementError({
        kind: 'STATEMENT_NOT_READY',
        status: row.status === 'ready' ? 'rendering' : row.status,
      })
    }
    return {
      bytes: Buffer.from(row.file),
      fileName: row.file_name ?? `${id}.bin`,
      contentType: row.content_type ?? 'application/octet-stream',
      sha256: row.sha256 ?? '',
      language: row.language,
    }
  }

  /**
   * A link that downloads the ready file without a sign-in for
   * STATEMENT_LINK_SECONDS (Telegram's downloadFile fetches the URL itself,
   * with no Authorization). A new link replaces the last.
   * @throws StatementError STATEMENT_NOT_FOUND, STATEMENT_NOT_READY
   */
  async link(owner: Owner, id: string, now = new Date()): Promise<StatementLink> {
    const statement = await this.get(owner, id)
    if (statement.status !== 'ready') {
      throw new StatementError({ kind: 'STATEMENT_NOT_READY', status: statement.status })
    }
    const token = randomBytes(32).toString('base64url')
    const expires = new Date(now.getTime() + STATEMENT_LINK_SECONDS * 1000)
    await repo.updateStatement(this.db, id, {
      link_hash: linkHash(token),
      link_expires_at: expires,
    })
    return {
      url: `${this.settings.publicUrl}/api/statements/files/${token}`,
      expires_at: expires.toISOString(),
    }
  }

  /** The file a live link names; undefined when the link is unknown or expired. */
  async fileByLink(token: string, now = new Date()) {
    const row = await repo.findByLink(this.db, linkHash(token), now)
    if (!row?.file) return undefined
    return {
      bytes: Buffer.from(row.file),
      fileName: row.file_name ?? 'statement',
      contentType: row.content_type ?? 'application/octet-stream',
      sha256: row.sha256 ?? '',
      language: row.language,
    }
  }

  /** What the public may learn of a ready statement from its code, file or hash; undefined: none. */
  async verify(
    by: { code: string } | { sha256: string },
  ): Promise<StatementVerification | undefined> {
    const row = await repo.findVerifiable(this.db, by)
    if (!row?.sha256) return undefined
    return {
      code: row.code,
      holder_initials: row.holder_initials,
      account_last4: row.account_last4,
      from: row.period_from.toISOString(),
      to: row.period_to.toISOString(),
      sha256: row.sha256,
    }
  }

  /**
   * The job: reads the period from the ledger and the feed, renders the
   * file, stores it with its hash. Progress moves as it goes. A statement
   * already ready (a second run after a crash) is left alone; one that
   * failed MAX_ATTEMPTS times is marked failed.
   */
  readonly render = async (job: Job, context: JobContext): Promise<JobResult> => {
    const id = String(job.payload.statement_id)
    const row = await repo.findForJob(context.db, id)
    if (!row || row.status === 'ready' || row.status === 'failed') return undefined
    const progress = (value: number) =>
      repo.updateStatement(context.db, id, { progress: Math.round(value), updated_at: new Date() })
    try {
      await repo.updateStatement(context.db, id, {
        status: 'rendering',
        progress: 5,
        updated_at: new Date(),
      })
      const document = await this.#document(context.db, row, context.now)
      await progress(40)
      const bytes =
        row.format === 'pdf'
          ? await renderStatementPdf(document, (share) => progress(40 + share * 50))
          : row.format === 'csv'
            ? renderStatementCsv(document)
            : renderStatementJson(document)
      const days = periodDays(row.period_from, row.period_to, row.time_zone)
      await repo.updateStatement(context.db, id, {
        status: 'ready',
        progress: 100,
        file: bytes,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        file_name: statementFileName(days, row.code, row.format),
        content_type: CONTENT_TYPES[row.format],
        updated_at: new Date(),
      })
      return undefined
    } catch (error) {
      if (job.attempt < MAX_ATTEMPTS) throw error
      context.log.error({ err: error, statement: id }, 'statement rendering gave up')
      await repo.updateStatement(context.db, id, { status: 'failed', updated_at: new Date() })
      return undefined
    }
  }

  async #document(
    db: Kysely<DB>,
    row: repo.StatementRow,
    issuedAt: Date,
  ): Promise<StatementDocument> {
    const owner = { tenantId: row.tenant_id, userId: row.user_id }
    const scope = { type: row.scope_type, id: row.scope_id }
    const ledger = await scopeLedger(db, owner, scope, row.language, this.bank)
    if (!ledger) throw new Error(`statement ${row.id}: its ${scope.type} ${scope.id} is gone`)
    const period = { from: row.period_from, to: row.period_to }
    const [holder, tenant, sections] = await Promise.all([
      repo.holderOf(db, row.user_id),
      repo.tenantOf(db, row.tenant_id),
      statementSections(db, owner, ledger, period, row.language),
    ])
    return {
      language: row.language,
      timeZone: row.time_zone,
      code: row.code,
      verifyUrl: `${this.settings.publicUrl}/api/statements/verify/${row.code}`,
      issuedAt,
      period,
      tenant: {
        name: tenant.name,
        color: tenant.primary_color,
        logo: await tenantLogo(this.settings.distDir, tenant.logo_url),
      },
      holder: holderLines({
        first_name: holder?.first_name ?? null,
        last_name: holder?.last_name ?? null,
        address: holder?.address ?? null,
      }),
      account: ledger.account,
      sections,
    }
  }
}
