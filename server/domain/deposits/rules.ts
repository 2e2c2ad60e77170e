/**
 * The sandbox chain's pure rules: what a deposit's transaction hash looks like
 * on each chain, how many confirmations complete it, and which step comes
 * next. No IO here.
 */
import { createHash } from 'node:crypto'
import { base58 } from '@scure/base'
import type { ChainId } from '../../../contract/catalog.ts'
import type { TransactionStatus } from '../../../contract/wallets.ts'

const HEX_64 = /^[0-9a-f]{64}$/
const EVM_HASH = /^0x[0-9a-f]{64}$/
// A Solana signature: 64 bytes in base58, 87 or 88 characters (rarely fewer).
const SOLANA_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/

/**
 * A transaction hash as the chain's explorers print it, drawn from `material`
 * (a hash of it: the same material, the same hash): 0x + 64 hex on Ethereum
 * and Polygon, 64 hex on Bitcoin and Tron, a base58 64-byte signature on Solana.
 */
export function txHashFor(chain: ChainId, material: string): string {
  if (chain === 'solana') return base58.encode(createHash('sha512').update(material).digest())
  const hex = createHash('sha256').update(material).digest('hex')
  return chain === 'ethereum' || chain === 'polygon' ? `0x${hex}` : hex
}

/** Whether `hash` has the shape of a transaction hash on `chain`. */
export function isTxHash(chain: ChainId, hash: string): boolean {
  switch (chain) {
    case 'ethereum':
    case 'polygon':
      return EVM_HASH.test(hash)
    case 'bitcoin':
    case 'tron':
      return HEX_64.test(hash)
    case 'solana':
      return SOLANA_SIGNATURE.test(hash) && base58.decode(hash).length === 64
  }
}

/**
 * Confirmations a sandbox deposit waits for: the chain's own count, capped so
 * a demo deposit completes in seconds, not Polygon's 128 blocks.
 */
export function requiredConfirmations(chainConfirmations: number, sandboxCap: number): number {
  return Math.max(1, Math.min(chainConfirmations, sandboxCap))
}

/**
 * The next step of a deposit walking new → pending → complete. Each step is
 * gated on the status it leaves, so running one twice (a job repeated after a
 * crash) finds the status moved on and does the next thing, never the same one.
 * - `seen`: the chain saw it (0 confirmations): money arrives as pending;
 * - `confirm`: one more block; `complete` when that block reaches `required`;
 * - `none`: nothing left to do (complete, or ended some other way).
 */
export type DepositStep =
  | { kind: 'seen' }
  | { kind: 'confirm'; confirmations: number; complete: boolean }
  | { kind: 'none' }

export function nextDepositStep(
  status: TransactionStatus,
  confirmations: number | null,
  required: number,
): DepositStep {
  if (status === 'new') return { kind: 'seen' }
  if (status === 'pending') {
    const next = Math.min((confirmations ?? 0) + 1, required)
    return { kind: 'confirm', confirmations: next, complete: next >= required }
  }
  return { kind: 'none' }
}
