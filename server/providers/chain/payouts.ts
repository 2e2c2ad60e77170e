/**
 * Crypto withdrawals leave through one interface: broadcast a transfer, then
 * watch it gather confirmations. The sandbox chain (sandbox-payouts.ts) and
 * real node or custody adapters sit behind it.
 */
import type { ChainId } from '../../../contract/catalog.ts'

export interface ChainWithdrawal {
  /** Ours, and the idempotency key of the broadcast: the same id, the same transaction. */
  id: string
  chain: ChainId
  /** The currency's code on the chain (ETH, USDT…). */
  currency: string
  /** The destination, as validateAddress normalised it. */
  address: string
  /** Minor units of `currency`. */
  amountMinor: bigint
}

/** On chain with a hash, or refused before broadcast (screening: ADDRESS_REJECTED). */
export type Broadcast =
  | { accepted: true; txHash: string }
  | { accepted: false; code: string; reason: string }

export interface ChainProgress {
  /** Blocks on top of the transaction's own, from 0 (just mined) upwards. */
  confirmations: number
  /** When another block is due: the moment worth asking again. */
  checkAgainAt: Date
}

export interface ChainPayouts {
  readonly name: string
  /**
   * Broadcasts the withdrawal. Idempotent on `withdrawal.id`.
   * @throws ChainUnavailableError when the node cannot be reached (try again later)
   */
  broadcast(withdrawal: ChainWithdrawal, now: Date): Promise<Broadcast>
  /** @throws ChainUnavailableError when the node cannot be reached (try again later) */
  progress(
    tx: { chain: ChainId; txHash: string; broadcastAt: Date },
    now: Date,
  ): Promise<ChainProgress>
}

export class ChainUnavailableError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ChainUnavailableError'
  }
}
