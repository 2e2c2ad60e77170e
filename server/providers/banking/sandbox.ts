import { createHash } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { composeIBAN } from 'ibantools'
import {
  type BankingProvider,
  BankUnavailableError,
  type CollectionAccount,
  type CollectionRail,
  type PayoutRequest,
  type PayoutState,
  type PayoutSubmission,
  type ReceivingBank,
} from './banking.ts'

/**
 * The sandbox bank. Its rules (docs/api.md):
 * - Deposits go to the platform's account at Sandbox Bank: SEPA to the IBAN
 *   DE36 1001 0010 0000 0000 01, SWIFT to an account number per currency;
 *   BIC SBXBDEB1XXX. Incoming transfers are reported with
 *   `POST /api/sandbox/bank-transfers`.
 * - A fiat account in euros has an IBAN of its own at Sandbox Bank
 *   (`accountIban`: DE, the bank code 10010010, the account's 10-digit
 *   number); a SEPA credit to it is reported with `POST /api/sandbox/sepa-credits`.
 * - Each call is answered after `latencyMs` (SANDBOX_BANK_LATENCY_MS, default
 *   0), as a bank's API takes its time.
 * - A payout is accepted at once and settles `payoutMs` (SANDBOX_BANK_MS,
 *   default 2 s) later.
 * - A payout to an IBAN whose last four characters are `0000` comes back
 *   when it would have settled: returned, ACCOUNT_CLOSED.
 * - A payout to an IBAN whose last four characters are `9999` meets a bank
 *   that never answers (BankUnavailableError on every call): the order was
 *   handed off, so it stays NEW with its funds held and its job keeps asking
 *   (docs/decisions.md, "Giving up").
 *
 * It keeps no state of its own — its answers must be the same after a
 * restart, as a real bank's are: a payout's reference is drawn from its id
 * and carries its fate (`SBX-S-…` settles, `SBX-R-…` comes back).
 */
export class SandboxBank implements BankingProvider {
  readonly name = 'sandbox'
  readonly bic = SANDBOX_RECEIVING.bic
  readonly bankName = SANDBOX_RECEIVING.bankName
  readonly accountIban = SANDBOX_RECEIVING.accountIban

  constructor(private readonly options: { payoutMs: number; latencyMs?: number }) {}

  async #answer(): Promise<void> {
    if (this.options.latencyMs) await sleep(this.options.latencyMs)
  }

  collectionAccount(rail: CollectionRail, currency: string): CollectionAccount {
    const base = { bic: SANDBOX_BIC, bankName: BANK_NAME, bankAddress: BANK_ADDRESS }
    if (rail === 'SEPA') return { ...base, iban: SANDBOX_IBAN, accountNumber: null }
    const accountNumber = SWIFT_ACCOUNTS[currency]
    if (!accountNumber) throw new Error(`the sandbox bank keeps no ${currency} account`)
    return { ...base, iban: null, accountNumber }
  }

  async submitPayout(request: PayoutRequest): Promise<PayoutSubmission> {
    await this.#answer()
    const iban = request.iban.replace(/\s/g, '').toUpperCase()
    if (iban.endsWith('9999')) throw new BankUnavailableError('the sandbox bank does not answer')
    const fate = iban.endsWith('0000') ? 'R' : 'S'
    const digest = createHash('sha256').update(`payout:${request.id}`).digest('hex')
    return { accepted: true, reference: `SBX-${fate}-${digest.slice(0, 20).toUpperCase()}` }
  }

  async payoutStatus(
    payout: { reference: string; submittedAt: Date },
    now: Date,
  ): Promise<PayoutState> {
    await this.#answer()
    const match = /^SBX-([SR])-[0-9A-F]{20}$/.exec(payout.reference)
    if (!match) throw new Error(`${payout.reference} is not a sandbox bank payout`)
    const settlesAt = new Date(payout.submittedAt.getTime() + this.options.payoutMs)
    if (now < settlesAt) return { state: 'pending', checkAgainAt: settlesAt }
    if (match[1] === 'R') {
      return {
        state: 'returned',
        code: 'ACCOUNT_CLOSED',
        reason: 'The beneficiary’s account is closed.',
      }
    }
    return { state: 'settled' }
  }
}

export const SANDBOX_IBAN = 'DE36100100100000000001'
export const SANDBOX_BIC = 'SBXBDEB1XXX'
const BANK_NAME = 'Sandbox Bank AG'
const BANK_ADDRESS = 'Sandboxstraße 1, 10115 Berlin, Germany'
const SWIFT_ACCOUNTS: Record<string, string> = {
  EUR: '1001001001',
  USD: '1001001002',
  GBP: '1001001003',
}

/** Sandbox Bank's bank code (Bankleitzahl): the IBANs it gives start DEkk 1001 0010. */
const BANK_CODE = '10010010'

/** Sandbox Bank giving customers' accounts their own IBANs: SEPA, so euros only. */
export const SANDBOX_RECEIVING: ReceivingBank = {
  bic: SANDBOX_BIC,
  bankName: BANK_NAME,
  accountIban(accountNumber: string, currency: string): string | null {
    if (currency !== 'EUR') return null
    if (!/^[0-9]{10}$/.test(accountNumber)) throw new Error(`${accountNumber}: 10 digits expected`)
    const iban = composeIBAN({ countryCode: 'DE', bban: `${BANK_CODE}${accountNumber}` })
    if (!iban) throw new Error(`no IBAN for account ${accountNumber}`)
    return iban
  },
}
