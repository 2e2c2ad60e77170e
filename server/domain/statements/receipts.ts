import type { Kysely } from 'kysely'
import { statementLanguageFor } from '../../../contract/statement-languages.ts'
import {
  STATEMENT_LINK_SECONDS,
  type StatementLanguage,
  type StatementLink,
} from '../../../contract/statements.ts'
import type { DB } from '../../infra/db/schema.ts'
import { ActivityError } from '../activity/errors.ts'
import { ActivityService } from '../activity/service.ts'
import type { Owner } from '../owner.ts'
import { StatementError } from './errors.ts'
import { renderReceipt } from './receipt.ts'
import { readReceiptLink, signReceiptLink } from './receipt-link.ts'
import * as repo from './repository.ts'
import { isTimeZone } from './rules.ts'
import { tenantLogo } from './statement-data.ts'

export interface ReceiptSettings {
  /** Where a receipt's link points (PUBLIC_URL). */
  publicUrl: string
  /** The built app: the tenant's logo is read from it. */
  distDir: string
  /** The key receipt links are signed with (receipt-link.ts receiptLinkKey). */
  linkKey: Uint8Array
}

export interface ReceiptOptions {
  language?: StatementLanguage
  timeZone?: string
}

/** One activity item as a PDF receipt: to its owner, or by a short-lived link they made. */
export class ReceiptService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly settings: ReceiptSettings,
  ) {}

  /**
   * The receipt PDF, in the person's language (or the one asked for) and zone.
   * @throws StatementError ACTIVITY_NOT_FOUND (also another person's), INVALID_PERIOD for an unknown zone
   */
  async receipt(
    owner: Owner,
    id: string,
    options: ReceiptOptions,
  ): Promise<{ bytes: Buffer; fileName: string; language: StatementLanguage }> {
    const timeZone = zoneOf(options)
    const item = await this.#item(owner, id)
    const [language, tenant] = await Promise.all([
      this.#language(owner, options),
      repo.tenantOf(this.db, owner.tenantId),
    ])
    const bytes = await renderReceipt(item, {
      language,
      timeZone,
      tenant: {
        name: tenant.name,
        color: tenant.primary_color,
        logo: await tenantLogo(this.settings.distDir, tenant.logo_url),
      },
    })
    return { bytes, fileName: `receipt-${item.created_at.slice(0, 10)}-${item.id}.pdf`, language }
  }

  /**
   * A link that downloads the receipt without a sign-in for
   * STATEMENT_LINK_SECONDS (Telegram's downloadFile fetches it itself).
   * @throws StatementError ACTIVITY_NOT_FOUND, INVALID_PERIOD for an unknown zone
   */
  async link(
    owner: Owner,
    id: string,
    options: ReceiptOptions,
    now = new Date(),
  ): Promise<StatementLink> {
    const timeZone = zoneOf(options)
    await this.#item(owner, id)
    const expiresAt = Math.floor(now.getTime() / 1000) + STATEMENT_LINK_SECONDS
    const token = signReceiptLink(this.settings.linkKey, {
      tenantId: owner.tenantId,
      userId: owner.userId,
      activityId: id,
      expiresAt,
    })
    const query = new URLSearchParams({
      language: await this.#language(owner, options),
      time_zone: timeZone,
    })
    return {
      url: `${this.settings.publicUrl}/api/receipts/${token}?${query}`,
      expires_at: new Date(expiresAt * 1000).toISOString(),
    }
  }

  /** The receipt a live link names; undefined when it is forged, expired or its item is gone. */
  async byLink(token: string, options: ReceiptOptions, now = new Date()) {
    const claims = readReceiptLink(this.settings.linkKey, token, now)
    if (!claims) return undefined
    const owner = { tenantId: claims.tenantId, userId: claims.userId }
    return this.receipt(owner, claims.activityId, options).catch((error: unknown) => {
      if (error instanceof StatementError && error.failure.kind === 'ACTIVITY_NOT_FOUND') {
        return undefined
      }
      throw error
    })
  }

  async #item(owner: Owner, id: string) {
    return new ActivityService(this.db).detail(owner, id).catch((error: unknown) => {
      if (error instanceof ActivityError && error.failure.kind === 'ACTIVITY_NOT_FOUND') {
        throw new StatementError({ kind: 'ACTIVITY_NOT_FOUND' })
      }
      throw error
    })
  }

  async #language(owner: Owner, options: ReceiptOptions): Promise<StatementLanguage> {
    if (options.language) return options.language
    return statementLanguageFor((await repo.holderOf(this.db, owner.userId))?.language ?? 'en')
  }
}

/** The zone asked for, UTC when none. @throws StatementError INVALID_PERIOD for an unknown one */
function zoneOf(options: ReceiptOptions): string {
  const timeZone = options.timeZone ?? 'UTC'
  if (!isTimeZone(timeZone)) {
    throw new StatementError({
      kind: 'INVALID_PERIOD',
      field: '/querystring/time_zone',
      message: 'must be an IANA time zone, such as Europe/Berlin',
    })
  }
  return timeZone
}
