/**
 * The platform's bank, behind one interface: where customers send deposits,
 * and the payouts the platform makes (SEPA). The sandbox bank (sandbox.ts)
 * and a real bank's adapter sit behind it.
 */

/** An account of the platform that receives customers' transfers. */
export interface CollectionAccount {
  /** SEPA: the IBAN to pay; null when the rail pays an account number. */
  iban: string | null
  /** SWIFT: the account number at the bank; null for SEPA. */
  accountNumber: string | null
  bic: string
  bankName: string
  bankAddress: string
}

export type CollectionRail = 'SEPA' | 'SWIFT'

export interface PayoutRequest {
  /** Ours, and the bank's idempotency key: the same id again is the same payout. */
  id: string
  iban: string
  bic: string | null
  beneficiary: string
  /** Minor units of `currency`. */
  amountMinor: bigint
  /** ISO 4217 code. */
  currency: string
  /** The remittance information the beneficiary sees. */
  remittance: string
}

/** The bank took the payout (`reference` is its id for it), or refused it outright. */
export type PayoutSubmission =
  | { accepted: true; reference: string }
  | { accepted: false; code: string; reason: string }

/** Where a payout the bank took has got to. */
export type PayoutState =
  | { state: 'pending'; checkAgainAt: Date }
  | { state: 'settled' }
  /** The beneficiary's bank sent it back (ACCOUNT_CLOSED, …): the money is ours again. */
  | { state: 'returned'; code: string; reason: string }

/**
 * The bank as it gives accounts of the platform's customers an IBAN of their
 * own (virtual IBANs): a SEPA credit to one lands in that account.
 */
export interface ReceivingBank {
  readonly bic: string
  readonly bankName: string
  /**
   * The IBAN of the platform's account `accountNumber` (10 digits) for SEPA
   * credits in `currency`; null when the bank takes none in that currency.
   */
  accountIban(accountNumber: string, currency: string): string | null
}

export interface BankingProvider extends ReceivingBank {
  readonly name: string
  /** Where a customer sends a deposit on `rail` in `currency`. */
  collectionAccount(rail: CollectionRail, currency: string): CollectionAccount
  /**
   * Hands a payout to the bank. Idempotent on `request.id`.
   * @throws BankUnavailableError when the bank cannot be reached (try again later)
   */
  submitPayout(request: PayoutRequest, now: Date): Promise<PayoutSubmission>
  /**
   * @throws BankUnavailableError when the bank cannot be reached (try again later)
   */
  payoutStatus(payout: { reference: string; submittedAt: Date }, now: Date): Promise<PayoutState>
}

/** The bank did not answer: nothing is known to have happened, ask again. */
export class BankUnavailableError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BankUnavailableError'
  }
}
