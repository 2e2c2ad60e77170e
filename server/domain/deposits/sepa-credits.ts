import { electronicFormatIBAN } from 'ibantools'
import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { AmountError, fromMinor, toMinor } from '../../../contract/money.ts'
import type { DB } from '../../infra/db/schema.ts'
import { recordDeposit } from '../card-transactions/account-deposits.ts'
import { DomainError } from '../failure.ts'
import { type MoneyTransaction, NothingToMove, runMoneyCommand } from '../ledger/money-command.ts'
import { systemAccount } from '../ledger/service.ts'
import * as activity from './account-feed.ts'

/*
 * SEPA credits to a fiat account's own IBAN (migration 0026): the bank
 * reports one, and in one transaction the account is credited (ledger:
 * external → the account's sub-account), the account gains its DEPOSIT
 * record (what its transaction list shows), the person's feed one
 * deposit item, from the sender, and the person hears of it
 * (`fiat.credit.received`): one money command (ledger/money-command.ts).
 */

export interface SepaCreditRequest {
  /** X-Tenant-Id when sent (lower-cased by the tenancy hook): the account must be the tenant's. */
  tenantId?: string
  iban: string
  amount: string
  currency: string
  senderName?: string
  senderIban?: string
  remittance?: string
  /** The bank's id of the transfer: the same again is the same credit. Default: drawn from the rest. */
  endToEndId?: string
}

export interface SepaCredit {
  id: string
  end_to_end_id: string
  iban: string
  amount: string
  currency: string
  fiat_account_id: string
  received_at: string
}

export type SepaCreditFailure =
  | { kind: 'IBAN_UNKNOWN' }
  | { kind: 'CURRENCY_MISMATCH'; expected: string }
  | { kind: 'INVALID_AMOUNT'; decimals: number }
  | { kind: 'ACCOUNT_UNAVAILABLE'; status: string }
  | { kind: 'CREDIT_CONFLICT' }

export class SepaCreditError extends DomainError<SepaCreditFailure> {}

/**
 * The bank reports a SEPA credit to `request.iban`. An account that is not
 * ACTIVE is credited nothing (the bank sends the money back); a credit whose
 * end-to-end id was seen answers that credit when it is the same, and
 * CREDIT_CONFLICT when it is not.
 * @throws SepaCreditError
 */
export async function receiveSepaCredit(
  db: Kysely<DB>,
  request: SepaCreditRequest,
  now = new Date(),
): Promise<SepaCredit> {
  const iban = electronicFormatIBAN(request.iban) ?? ''
  const currencyCode = request.currency.trim().toUpperCase()
  const account = await accountOf(db, iban)
  if (!account || (request.tenantId && account.tenant_id !== request.tenantId)) {
    throw new SepaCreditError({ kind: 'IBAN_UNKNOWN' })
  }
  const { answer: credited } = await runMoneyCommand(db, {
    name: 'fiat.credit',
    tenantId: account.tenant_id,
    // No client key: the bank's end-to-end id is the credit's (a unique column, read again below).
    execute: (money) => credit(money, account, request, { iban, currencyCode, now }),
  })
  return credited
}

type CreditedAccount = NonNullable<Awaited<ReturnType<typeof accountOf>>>

function accountOf(db: Kysely<DB> | Transaction<DB>, iban: string) {
  return db
    .selectFrom('fiat_accounts as f')
    .innerJoin('wallets as w', 'w.id', 'f.wallet_id')
    .innerJoin('currencies as c', 'c.uuid', 'f.currency_uuid')
    .select([
      'f.id',
      'f.tenant_id',
      'f.wallet_id',
      'f.status',
      'f.currency_uuid',
      'f.ledger_account_id',
      'c.code as currency',
      'c.decimals',
      'w.user_id',
    ])
    .where('f.iban', '=', iban)
    .executeTakeFirst()
}

/** The credit's one transaction (a money command): its row, the ledger entry, the feed, the event. */
async function credit(
  money: MoneyTransaction,
  account: CreditedAccount,
  request: SepaCreditRequest,
  context: { iban: string; currencyCode: string; now: Date },
): Promise<SepaCredit> {
  const { trx } = money
  const { iban, now } = context
  // The account row locked: two reports of one transfer are taken one after the other.
  const { status } = await trx
    .selectFrom('fiat_accounts')
    .select('status')
    .where('id', '=', account.id)
    .forUpdate()
    .executeTakeFirstOrThrow()
  if (context.currencyCode !== account.currency) {
    throw new SepaCreditError({ kind: 'CURRENCY_MISMATCH', expected: account.currency })
  }
  const amountMinor = parseAmount(request.amount, account.decimals)
  const id = uuidv7()
  const endToEndId = request.endToEndId ?? id
  const seen = await trx
    .selectFrom('fiat_account_credits')
    .selectAll()
    .where('end_to_end_id', '=', endToEndId)
    .executeTakeFirst()
  if (seen) {
    if (seen.iban !== iban || BigInt(seen.amount_minor) !== amountMinor) {
      throw new SepaCreditError({ kind: 'CREDIT_CONFLICT' })
    }
    // Told before: the first answer, nothing written again.
    throw new NothingToMove(answer(seen, account))
  }
  if (status !== 'ACTIVE') {
    throw new SepaCreditError({ kind: 'ACCOUNT_UNAVAILABLE', status })
  }

  const row = {
    id,
    tenant_id: account.tenant_id,
    fiat_account_id: account.id,
    end_to_end_id: endToEndId,
    iban,
    amount_minor: amountMinor.toString(),
    currency_uuid: account.currency_uuid,
    sender_name: request.senderName?.trim() || null,
    sender_iban: request.senderIban ? electronicFormatIBAN(request.senderIban) : null,
    remittance: request.remittance?.trim() || null,
    received_at: now,
  }
  await trx.insertInto('fiat_account_credits').values(row).execute()
  await money.post({
    kind: 'bank_credit',
    idempotencyKey: `bank-credit:${id}`,
    postings: [
      {
        account: await systemAccount(trx, account.tenant_id, 'external'),
        currency: account.currency_uuid,
        amount: -amountMinor,
      },
      { account: account.ledger_account_id, currency: account.currency_uuid, amount: amountMinor },
    ],
  })
  const recordId = uuidv7()
  const activityId = uuidv7()
  await activity.accountCredited(trx, {
    id: activityId,
    account,
    recordId,
    currencyUuid: account.currency_uuid,
    amountMinor,
    senderName: row.sender_name,
    remittance: row.remittance,
    at: now,
  })
  await recordDeposit(trx, {
    id: recordId,
    fiatAccountId: account.id,
    operationId: id,
    amountMinor,
    activityId,
    at: now,
  })
  const credited = answer(row, account)
  await money.emit({
    userId: account.user_id,
    kind: 'fiat.credit.received',
    payload: {
      fiat_account_id: account.id,
      credit_id: id,
      amount: credited.amount,
      currency: credited.currency,
      sender_name: row.sender_name,
      remittance: row.remittance,
    },
    at: now,
  })
  return credited
}

const answer = (
  credit: {
    id: string
    end_to_end_id: string
    iban: string
    amount_minor: string
    fiat_account_id: string
    received_at: Date
  },
  account: { currency: string; decimals: number },
): SepaCredit => ({
  id: credit.id,
  end_to_end_id: credit.end_to_end_id,
  iban: credit.iban,
  amount: fromMinor(BigInt(credit.amount_minor), account.decimals),
  currency: account.currency,
  fiat_account_id: credit.fiat_account_id,
  received_at: credit.received_at.toISOString(),
})

/** A positive amount in at most the currency's places. */
function parseAmount(amount: string, decimals: number): bigint {
  try {
    const minor = toMinor(amount, decimals)
    if (minor > 0n) return minor
  } catch (error) {
    if (!(error instanceof AmountError)) throw error
  }
  throw new SepaCreditError({ kind: 'INVALID_AMOUNT', decimals })
}
