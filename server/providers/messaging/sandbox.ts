import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { OutboxMessage } from '../../../contract/sandbox.ts'
import type { DB } from '../../infra/db/schema.ts'
import {
  MessageNotDeliveredError,
  type MessagingProvider,
  type OutgoingMessage,
} from './messaging.ts'

/**
 * Recipients the sandbox refuses, as a real gateway refuses a dead mailbox or
 * an unreachable number, so the failure path can be tried end to end.
 * (`.test` is a reserved TLD: no real address ends so.)
 */
export const SANDBOX_UNDELIVERABLE = {
  emailDomain: '@fail.test',
  phoneSuffix: '0000',
} as const

export const isUndeliverable = (message: Pick<OutgoingMessage, 'channel' | 'to'>) =>
  message.channel === 'email'
    ? message.to.endsWith(SANDBOX_UNDELIVERABLE.emailDomain)
    : message.to.endsWith(SANDBOX_UNDELIVERABLE.phoneSuffix)

/**
 * The offline stand-in for e-mail and SMS gateways: it "sends" by writing the
 * message to the sandbox_outbox table, which GET /api/sandbox/outbox reads.
 * Kept in the database, not in memory, so the outbox survives a restart. Like
 * a real party it answers after a short delay, and refuses some recipients
 * (SANDBOX_UNDELIVERABLE) — before writing anything.
 */
export class SandboxMessaging implements MessagingProvider {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: { delayMs: number } = { delayMs: 15 },
  ) {}

  async send(message: OutgoingMessage): Promise<void> {
    await sleep(this.options.delayMs)
    if (isUndeliverable(message)) {
      throw new MessageNotDeliveredError(
        `The sandbox gateway refuses ${message.channel} to this recipient.`,
      )
    }
    await this.db
      .insertInto('sandbox_outbox')
      .values({
        id: uuidv7(),
        tenant_id: message.tenantId,
        channel: message.channel,
        recipient: message.to,
        purpose: message.purpose,
        code: message.code,
        subject: message.subject ?? null,
        body: message.body,
      })
      .execute()
  }
}

/** The outbox, newest first; `to` is an e-mail lower-cased or a phone as digits. */
export async function listOutbox(
  db: Kysely<DB>,
  filter: { to?: string | undefined; tenantId?: string | undefined; limit: number },
): Promise<OutboxMessage[]> {
  let query = db
    .selectFrom('sandbox_outbox')
    .select(['id', 'channel', 'recipient', 'purpose', 'code', 'subject', 'body', 'created_at'])
    // The id (UUIDv7) breaks ties between messages of the same instant in the order they were sent.
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit)
  if (filter.to !== undefined) query = query.where('recipient', '=', filter.to)
  if (filter.tenantId !== undefined) query = query.where('tenant_id', '=', filter.tenantId)
  const rows = await query.execute()
  return rows.map(({ recipient, created_at, ...row }) => ({
    ...row,
    to: recipient,
    created_at: created_at.toISOString(),
  }))
}
