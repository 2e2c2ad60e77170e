import { DomainError } from '../failure.ts'
/**
 * The failures of the wallet use cases; routes.ts maps them to HTTP in one
 * switch. Every area that reaches its records through a wallet of the caller's
 * fails with `WALLET_NOT_FOUND` here, so each answers as GET /wallets/{id} does.
 */
export type WalletFailure =
  /** No such wallet, or another user's (or tenant's): the two look the same. */
  | { kind: 'WALLET_NOT_FOUND' }
  /** The tenant does not offer wallets of this type (its configuration's `wallet_types`). */
  | { kind: 'WALLET_TYPE_NOT_OFFERED'; offered: string[] }

export class WalletError extends DomainError<WalletFailure> {}

/** The failure of a wallet id that is not the caller's (see WalletFailure). */
export const walletNotFound = () => new WalletError({ kind: 'WALLET_NOT_FOUND' })
