import type { Kysely } from 'kysely'
import { fromMinor } from '../../../contract/money.ts'
import type { ContactChannel } from '../../../contract/transfers.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Job, JobContext, JobResult } from '../../infra/jobs.ts'
import {
  MessageNotDeliveredError,
  type MessagingProvider,
} from '../../providers/messaging/messaging.ts'
import { formatAmount } from '../format-amount.ts'
import { runMoneyCommand } from '../ledger/money-command.ts'
import { inviteMessage } from './invite.ts'
import * as repo from './repository.ts'
import { displayName, normaliseUsername, transferLegs } from './rules.ts'
import { delivered, requireAccounts } from './send-transfer.ts'
import * as activity from './transfer-feed.ts'

export interface ClaimDeps {
  db: Kysely<DB>
  messaging: MessagingProvider
  /** PUBLIC_URL: the invitation's sign-up link. */
  publicUrl: string
}

/** The transfer was claimed or returned meanwhile: nothing to move, nobody to tell. */
class AlreadySettled extends Error {}

const transferIdOf = (job: Job) => String(job.payload.transfer_id)

/**
 * CLAIM_DELIVERY_JOB, right after a claimable transfer is sent: a contact
 * that belongs to a customer (one who does not let people find them) is paid
 * now; anyone else is invited by e-mail or SMS. A Telegram username has
 * neither: its owner claims it by signing up in the Mini App.
 */
export async function deliverClaimable(
  deps: ClaimDeps,
  job: Job,
  context: JobContext,
): Promise<JobResult> {
  const transfer = await deps.db
    .selectFrom('transfers')
    .selectAll()
    .where('id', '=', transferIdOf(job))
    .executeTakeFirst()
  if (transfer?.status !== 'AWAITING_CLAIM') return undefined
  const channel = transfer.contact_channel!
  const person = await repo.findPerson(deps.db, transfer.tenant_id, {
    kind: 'contact',
    channel,
    value: transfer.contact!,
  })
  if (person && person.blocked_at === null) {
    await claim(deps, transfer.id, person, context.now)
    return undefined
  }
  if (channel === 'telegram_username') return undefined
  const [sender, currency] = await Promise.all([
    repo.findPerson(deps.db, transfer.tenant_id, { kind: 'user', userId: transfer.sender_id }),
    repo.findCurrency(deps.db, transfer.currency_uuid),
  ])
  const language = sender?.language ?? 'en'
  const text = inviteMessage({
    channel,
    senderName: transfer.sender_name,
    amount: formatAmount(
      language,
      fromMinor(BigInt(transfer.amount_minor), currency!.decimals),
      currency!.code,
    ),
    note: transfer.note,
    expiresAt: transfer.expires_at!,
    signUpUrl: `${deps.publicUrl}/auth/sign-up`,
    language,
  })
  try {
    await deps.messaging.send({
      tenantId: transfer.tenant_id,
      channel: channel === 'email' ? 'email' : 'sms',
      to: transfer.contact!,
      purpose: 'transfer_invite',
      code: null,
      language,
      ...text,
    })
  } catch (error) {
    // A mailbox or number that refuses mail stays refused: the transfer waits its seven days.
    if (!(error instanceof MessageNotDeliveredError)) throw error
    context.log.warn({ transfer: transfer.id, err: error }, 'transfer invitation not delivered')
  }
  return undefined
}

/**
 * CONTACT_JOINED_JOB: a person signed up, or confirmed a new e-mail or
 * phone; every transfer waiting for one of their contacts is theirs now.
 */
export async function claimForNewcomer(
  deps: ClaimDeps,
  job: Job,
  context: JobContext,
): Promise<JobResult> {
  const tenantId = job.tenantId!
  const person = await repo.findPerson(deps.db, tenantId, {
    kind: 'user',
    userId: String(job.payload.user_id),
  })
  if (!person || person.blocked_at !== null) return undefined
  const contacts: { channel: ContactChannel; value: string }[] = []
  if (person.email) contacts.push({ channel: 'email', value: person.email })
  if (person.phone) contacts.push({ channel: 'phone', value: person.phone })
  if (person.username) {
    contacts.push({ channel: 'telegram_username', value: normaliseUsername(person.username) })
  }
  for (const waiting of await repo.claimableFor(deps.db, tenantId, contacts)) {
    await claim(deps, waiting.id, person, context.now)
  }
  return undefined
}

/**
 * One money command: the transfer COMPLETE for `person`, the held money into
 * their wallet, the sender's item completed and the recipient's written, and
 * both told. A person without a wallet (a tenant that opens none) leaves it
 * waiting: it goes back at its deadline.
 */
async function claim(deps: ClaimDeps, transferId: string, person: repo.PersonRow, now: Date) {
  const tenantId = (
    await deps.db
      .selectFrom('transfers')
      .select('tenant_id')
      .where('id', '=', transferId)
      .executeTakeFirstOrThrow()
  ).tenant_id
  const walletId = await repo.receivingWallet(deps.db, tenantId, person.id)
  if (!walletId) return
  const recipientAccounts = await requireAccounts(deps.db, tenantId, walletId)
  const recipientName = displayName(person)
  await settle(deps, tenantId, 'transfers.claim', async (money) => {
    const row = await repo.lockTransfer(money.trx, tenantId, transferId)
    if (
      !row ||
      !(await repo.settleClaimable(money.trx, transferId, {
        status: 'COMPLETE',
        recipient_id: person.id,
        recipient_wallet_id: walletId,
        at: now,
      }))
    ) {
      throw new AlreadySettled()
    }
    const currency = (await repo.findCurrency(money.trx, row.currency_uuid))!
    const amountMinor = BigInt(row.amount_minor)
    const sender = await requireAccounts(money.trx, tenantId, row.sender_wallet_id)
    await money.post({
      kind: 'transfer',
      idempotencyKey: `transfer:${row.id}:claim`,
      postings: transferLegs(
        'claim',
        {
          senderWallet: sender.user_wallet,
          senderHeld: sender.held,
          recipientWallet: recipientAccounts.user_wallet,
        },
        currency.uuid,
        amountMinor,
      ),
    })
    const told = {
      tenantId,
      transferId: row.id,
      currencyUuid: currency.uuid,
      amountMinor,
      note: row.note,
      at: now,
    }
    const sentItem = await activity.transferSettled(money.trx, {
      ...told,
      outcome: 'claimed',
      recipientName,
    })
    await repo.settleSenderRecord(money.trx, row, 'complete', now)
    const receivedItem = await delivered(
      money,
      { ...row, recipient_id: person.id, recipient_wallet_id: walletId },
      told,
    )
    const said = {
      transfer_id: row.id,
      amount: fromMinor(amountMinor, currency.decimals),
      currency: currency.code,
      note: row.note,
    }
    await money.emit({
      userId: row.sender_id,
      kind: 'transfer.claimed',
      payload: {
        ...said,
        activity_id: sentItem,
        wallet_id: row.sender_wallet_id,
        to_name: recipientName,
      },
    })
    await money.emit({
      userId: person.id,
      kind: 'transfer.received',
      payload: {
        ...said,
        activity_id: receivedItem,
        wallet_id: walletId,
        from_name: row.sender_name,
      },
    })
  })
}

/**
 * CLAIM_RETURN_JOB, due at the deadline: a transfer nobody claimed goes back
 * to the sender's available balance (one money command), and they are told.
 */
export async function returnUnclaimed(
  deps: ClaimDeps,
  job: Job,
  context: JobContext,
): Promise<JobResult> {
  const transferId = transferIdOf(job)
  const tenantId = job.tenantId!
  await settle(deps, tenantId, 'transfers.return', async (money) => {
    const row = await repo.lockTransfer(money.trx, tenantId, transferId)
    if (
      !row ||
      !(await repo.settleClaimable(money.trx, transferId, { status: 'RETURNED', at: context.now }))
    ) {
      throw new AlreadySettled()
    }
    const currency = (await repo.findCurrency(money.trx, row.currency_uuid))!
    const amountMinor = BigInt(row.amount_minor)
    const sender = await requireAccounts(money.trx, tenantId, row.sender_wallet_id)
    await money.post({
      kind: 'transfer',
      idempotencyKey: `transfer:${row.id}:return`,
      postings: transferLegs(
        'return',
        { senderWallet: sender.user_wallet, senderHeld: sender.held },
        currency.uuid,
        amountMinor,
      ),
    })
    const sentItem = await activity.transferSettled(money.trx, {
      tenantId,
      transferId: row.id,
      at: context.now,
      outcome: 'returned',
    })
    await repo.settleSenderRecord(money.trx, row, 'failed', context.now)
    await money.emit({
      userId: row.sender_id,
      kind: 'transfer.returned',
      payload: {
        transfer_id: row.id,
        activity_id: sentItem,
        wallet_id: row.sender_wallet_id,
        amount: fromMinor(amountMinor, currency.decimals),
        currency: currency.code,
        note: row.note,
        to_name: row.recipient_name,
      },
    })
  })
  return undefined
}

/** A claim or a return as a money command; one that finds the transfer settled does nothing. */
async function settle(
  deps: ClaimDeps,
  tenantId: string,
  name: string,
  execute: Parameters<typeof runMoneyCommand<void>>[1]['execute'],
): Promise<void> {
  try {
    await runMoneyCommand(deps.db, { name, tenantId, execute })
  } catch (error) {
    if (!(error instanceof AlreadySettled)) throw error
  }
}
