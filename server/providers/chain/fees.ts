import type { ChainId } from '../../../contract/catalog.ts'

/** What broadcasting one withdrawal costs, in the chain's native coin. */
export interface NetworkFee {
  /** Code of the chain's native coin (BTC, ETH, TRX, POL, SOL): what the fee is paid in. */
  currency: string
  /** Exact decimal amount of that coin ("0.0004"). */
  amount: string
}

/**
 * What a withdrawal will cost on chain. One interface; the sandbox and a real
 * adapter (a node's fee estimate, a gas oracle) sit behind it. The platform
 * pays the chain and charges the person the same amount in the withdrawn
 * currency (pricing.ts `networkFeeMinor` converts it, rounding up).
 */
export interface NetworkFeeEstimator {
  readonly name: string
  /**
   * The fee to send the chain's native coin, or one of its tokens: a token
   * transfer runs a contract and costs more.
   */
  estimate(chain: ChainId, asset: 'native' | 'token'): Promise<NetworkFee>
}

/**
 * Typical fees of each chain, fixed: a plain transfer of the native coin and
 * a token transfer (ERC-20 ≈ 3× the gas of a plain send; a TRC-20 transfer
 * burns energy worth ≈ 15 TRX; an SPL transfer signs twice). Bitcoin has no
 * tokens on this platform.
 */
export const SANDBOX_NETWORK_FEES: Record<
  ChainId,
  { currency: string; native: string; token: string }
> = {
  bitcoin: { currency: 'BTC', native: '0.00002', token: '0.00002' },
  ethereum: { currency: 'ETH', native: '0.0004', token: '0.0012' },
  tron: { currency: 'TRX', native: '1', token: '15' },
  polygon: { currency: 'POL', native: '0.01', token: '0.03' },
  solana: { currency: 'SOL', native: '0.000005', token: '0.00001' },
}

/** The sandbox chain's fees: the same every time, so quotes and tests can be recomputed. */
export class SandboxNetworkFees implements NetworkFeeEstimator {
  readonly name = 'sandbox'

  async estimate(chain: ChainId, asset: 'native' | 'token'): Promise<NetworkFee> {
    const fees = SANDBOX_NETWORK_FEES[chain]
    return { currency: fees.currency, amount: fees[asset] }
  }
}
