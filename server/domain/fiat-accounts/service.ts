import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type {
  CardProgram,
  CardProgramList,
  FiatAccount,
  FiatAccountList,
} from '../../../contract/fiat-accounts.ts'
import { fromMinor } from '../../../contract/money.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { ReceivingBank } from '../../providers/banking/banking.ts'
import { openSubAccount } from '../ledger/service.ts'
import type { Owner } from '../owner.ts'
import { pageOf } from '../page.ts'
import { walletNotFound } from '../wallets/errors.ts'
import { findWallet } from '../wallets/repository.ts'
import { FiatAccountError } from './errors.ts'
import * as repo from './repository.ts'
import {
  ACCOUNT_NUMBER_ATTEMPTS,
  accountLast4,
  accountNumber,
  plainDecimal,
  programRefusal,
} from './rules.ts'

type Page = { limit: number; offset: number }
type ListQuery = Page & {
  show_cards?: boolean
  lt_cards_limit?: number
  gt_cards_limit?: number
}

/** The card programs of the tenant's issuer: what a fiat account (and later a card) is opened under. */
export class ProgramService {
  constructor(private readonly db: Kysely<DB>) {}

  async listPrograms(tenantId: string, page: Page): Promise<CardProgramList> {
    const [rows, total] = await Promise.all([
      repo.findPrograms(this.db, tenantId, page),
      repo.countPrograms(this.db, tenantId),
    ])
    return pageOf(rows.map(toProgram), total, page)
  }
}

/**
 * Fiat accounts: money in one fiat currency under a card program, held by a
 * wallet in a ledger sub-account of its own. The account's balance is that
 * sub-account's balance; top-up orders fill it and cards (issue 6) spend it.
 * It is not part of the wallet's balances.
 */
export class FiatAccountService {
  constructor(
    private readonly db: Kysely<DB>,
    /** The bank that gives accounts their IBANs. */
    private readonly bank: ReceivingBank,
  ) {}

  /**
   * The wallet's fiat accounts, oldest first, narrowed by their number of
   * cards (`lt_cards_limit`, `gt_cards_limit`); `show_cards` adds the cards.
   * @throws WALLET_NOT_FOUND (WalletError) also for another user's (or tenant's) wallet
   */
  async list(owner: Owner, walletId: string, query: ListQuery): Promise<FiatAccountList> {
    if (!(await findWallet(this.db, owner, walletId))) throw walletNotFound()
    const page = { limit: query.limit, offset: query.offset }
    const cards = { lt: query.lt_cards_limit, gt: query.gt_cards_limit }
    const [rows, total] = await Promise.all([
      repo.findFiatAccounts(this.db, owner, walletId, page, cards),
      repo.countFiatAccounts(this.db, owner, walletId, cards),
    ])
    return pageOf(await this.present(owner, rows, query.show_cards === true), total, page)
  }

  /**
   * One of the owner's accounts; in `walletId` when given (v2), any of the
   * owner's wallets when not (v1).
   * @throws FiatAccountError FIAT_ACCOUNT_NOT_FOUND also for another user's, or one in another wallet
   */
  async get(
    owner: Owner,
    walletId: string | undefined,
    fiatAccountId: string,
    showCards = false,
  ): Promise<FiatAccount> {
    const row = await repo.findFiatAccount(this.db, owner, {
      id: fiatAccountId,
      ...(walletId !== undefined && { walletId }),
    })
    if (!row) throw new FiatAccountError({ kind: 'FIAT_ACCOUNT_NOT_FOUND' })
    const [account] = await this.present(owner, [row], showCards)
    return account!
  }

  private async present(
    owner: Owner,
    given: repo.FiatAccountRow[],
    showCards: boolean,
  ): Promise<FiatAccount[]> {
    const rows = await Promise.all(given.map((row) => this.withIban(owner, row)))
    if (!showCards) return rows.map((row) => toFiatAccount(row, this.bank))
    const cards = await repo.findAccountCards(
      this.db,
      owner.tenantId,
      rows.map((row) => row.id),
    )
    return rows.map((row) => ({
      ...toFiatAccount(row, this.bank),
      cards: cards
        .filter((card) => card.fiat_account_id === row.id)
        .map(({ fiat_account_id: _, ...card }) => card),
    }))
  }

  /**
   * Opens a fiat account under an active program of the tenant, in the
   * program's currency and sub-account type: the account row and its ledger
   * sub-account in one transaction, so neither exists without the other.
   * @throws WALLET_NOT_FOUND (WalletError) also for another user's (or tenant's) wallet
   * @throws FiatAccountError PROGRAM_NOT_FOUND (not the tenant's), PROGRAM_ARCHIVED
   */
  async create(
    owner: Owner,
    walletId: string,
    programId: string,
    now = new Date(),
  ): Promise<FiatAccount> {
    if (!(await findWallet(this.db, owner, walletId))) throw walletNotFound()
    const program = await repo.findProgram(this.db, owner.tenantId, programId)
    const refusal = programRefusal(program)
    if (!program || refusal) {
      throw new FiatAccountError({ kind: refusal ?? 'PROGRAM_NOT_FOUND', programId })
    }
    const id = uuidv7()
    const row = await this.db.transaction().execute(async (trx) => {
      const ledgerAccountId = await openSubAccount(trx, owner.tenantId, walletId)
      await insertFiatAccount(
        trx,
        {
          id,
          tenantId: owner.tenantId,
          walletId,
          programId: program.id,
          currencyUuid: program.currency_uuid,
          currency: program.currency,
          subAccountType: program.sub_account_type,
          ledgerAccountId,
          at: now,
        },
        this.bank,
      )
      return repo.findFiatAccount(trx, owner, { id })
    })
    if (!row) throw new Error(`fiat account ${id} vanished`)
    return toFiatAccount(row, this.bank)
  }

  /**
   * The row with its IBAN: an account of a SEPA currency opened before
   * migration 0026 is given one here, the first time it is read (once
   * given, the same on every read).
   */
  private async withIban(owner: Owner, row: repo.FiatAccountRow): Promise<repo.FiatAccountRow> {
    if (row.iban !== null) return row
    for (let attempt = 0; attempt < ACCOUNT_NUMBER_ATTEMPTS; attempt++) {
      const iban = this.bank.accountIban(accountNumber(row.id, attempt), row.currency)
      if (iban === null) return row
      if (await repo.setIbanIfMissing(this.db, row.id, iban)) {
        return (await repo.findFiatAccount(this.db, owner, { id: row.id })) ?? row
      }
    }
    return row
  }
}

/**
 * Writes a new fiat account with its own IBAN at the bank where its currency
 * has one: a number another account drew already is drawn again.
 */
export async function insertFiatAccount(
  trx: Transaction<DB>,
  row: Omit<Parameters<typeof repo.insertFiatAccount>[1], 'iban'> & { currency: string },
  bank: ReceivingBank,
): Promise<void> {
  for (let attempt = 0; attempt < ACCOUNT_NUMBER_ATTEMPTS; attempt++) {
    const iban = bank.accountIban(accountNumber(row.id, attempt), row.currency)
    if (await repo.insertFiatAccount(trx, { ...row, iban })) return
  }
  throw new Error(`no free IBAN for fiat account ${row.id}`)
}

const toProgram = (row: repo.ProgramRow): CardProgram => ({
  id: row.id,
  name: row.name,
  status: row.status,
  currency_uuid: row.currency_uuid,
  currency: row.currency,
  form_factors: row.form_factors,
  card_type: row.card_type,
  sub_account_type: row.sub_account_type,
  fees: {
    issue: fromMinor(BigInt(row.fee_issue_minor), row.decimals),
    monthly: fromMinor(BigInt(row.fee_monthly_minor), row.decimals),
    top_up_percent: plainDecimal(row.fee_top_up_percent),
  },
})

export const toFiatAccount = (row: repo.FiatAccountRow, bank: ReceivingBank): FiatAccount => ({
  id: row.id,
  wallet_uuid: row.wallet_id,
  program_id: row.program_id,
  program_name: row.program_name,
  sub_account_type: row.sub_account_type,
  status: row.status,
  currency_uuid: row.currency_uuid,
  currency: row.currency,
  balance: fromMinor(BigInt(row.balance_minor ?? '0'), row.decimals),
  account_last4: accountLast4(row.id),
  bank_details:
    row.iban === null
      ? null
      : {
          iban: row.iban,
          bic: bank.bic,
          bank_name: bank.bankName,
          account_holder:
            [row.holder_first_name, row.holder_last_name].filter(Boolean).join(' ') || null,
        },
  stand_alone: row.stand_alone,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})
