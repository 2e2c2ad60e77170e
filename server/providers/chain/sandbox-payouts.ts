import type { ChainId } from '../../../contract/catalog.ts'
import { txHashFor } from '../../domain/deposits/rules.ts'
import type { Broadcast, ChainPayouts, ChainProgress, ChainWithdrawal } from './payouts.ts'

/**
 * The sandbox chain's withdrawals. Its rules (docs/api.md):
 * - a withdrawal is broadcast at once; its hash has the chain's shape and is
 *   drawn from the order id, so a repeated broadcast is the same transaction;
 * - it gains one confirmation per SANDBOX_BLOCK_MS from the broadcast;
 * - a withdrawal to an address on SANCTIONED_ADDRESSES is refused before
 *   broadcast: ADDRESS_REJECTED.
 * Like the sandbox bank it keeps no state: every answer follows from the
 * withdrawal and the clock, so a restart changes nothing.
 */
export class SandboxChainPayouts implements ChainPayouts {
  readonly name = 'sandbox'

  constructor(private readonly options: { blockMs: number }) {}

  async broadcast(withdrawal: ChainWithdrawal): Promise<Broadcast> {
    if (isSanctioned(withdrawal.chain, withdrawal.address)) {
      return {
        accepted: false,
        code: 'ADDRESS_REJECTED',
        reason: `${withdrawal.address} is on the sandbox sanctions list.`,
      }
    }
    return { accepted: true, txHash: txHashFor(withdrawal.chain, `withdrawal:${withdrawal.id}`) }
  }

  async progress(tx: { broadcastAt: Date }, now: Date): Promise<ChainProgress> {
    const { blockMs } = this.options
    // A zero block time: every block is there already.
    if (blockMs <= 0) return { confirmations: Number.MAX_SAFE_INTEGER, checkAgainAt: now }
    const elapsed = Math.max(0, now.getTime() - tx.broadcastAt.getTime())
    const confirmations = Math.floor(elapsed / blockMs)
    const nextBlock = tx.broadcastAt.getTime() + (confirmations + 1) * blockMs
    return { confirmations, checkAgainAt: new Date(nextBlock) }
  }
}

/**
 * The sandbox's sanctions list: one address per address format, each valid
 * on its chain (so a test can save it as a destination) and held by no one —
 * each is derived from the text "sandbox-sanctioned".
 */
export const SANCTIONED_ADDRESSES: Readonly<Record<ChainId, readonly string[]>> = {
  bitcoin: ['bc1qwu2944z0cfsdxzhmt3j0fktvt39xsetsp7a5gg'],
  ethereum: ['0x5Da860577acF65b0B9B7832b87Db326Abb6eEB84'],
  polygon: ['0x5Da860577acF65b0B9B7832b87Db326Abb6eEB84'],
  tron: ['TJWRYthBCHjEcbng9wz7kB8Twg5Lo5oCUh'],
  solana: ['E6MLghJrNhfXjkvu3Ny3oBd7hJka4peoh6cnzqa7g2Mn'],
}

function isSanctioned(chain: ChainId, address: string): boolean {
  // EVM addresses compare without their checksum case; the others are case-sensitive.
  const evm = chain === 'ethereum' || chain === 'polygon'
  const wanted = evm ? address.toLowerCase() : address
  return SANCTIONED_ADDRESSES[chain].some(
    (listed) => (evm ? listed.toLowerCase() : listed) === wanted,
  )
}
