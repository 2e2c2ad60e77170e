import { describe, expect, it } from 'vitest'
import type { ChainId } from '../../../contract/catalog.ts'
import { validateAddress } from '../../domain/addresses/validate.ts'
import { isTxHash } from '../../domain/deposits/rules.ts'
import type { ChainPayouts } from './payouts.ts'
import { SANCTIONED_ADDRESSES, SandboxChainPayouts } from './sandbox-payouts.ts'

describe('the sandbox chain’s withdrawals', () => {
  const chain: ChainPayouts = new SandboxChainPayouts({ blockMs: 1_000 })
  const t0 = new Date('2025-06-01T12:00:00Z')
  const withdrawal = (chainId: ChainId, address: string, id = 'order-1') => ({
    id,
    chain: chainId,
    currency: 'USDT',
    address,
    amountMinor: 1_000_000n,
  })

  it('lists one valid address per chain: a test can save it as a destination', () => {
    for (const [chainId, addresses] of Object.entries(SANCTIONED_ADDRESSES)) {
      for (const address of addresses) {
        expect(validateAddress(chainId as ChainId, address), `${chainId} ${address}`).toEqual({
          ok: true,
          normalized: address,
        })
      }
    }
  })

  it('refuses a sanctioned address before broadcast, in any letter case on EVM chains', async () => {
    for (const [chainId, [address]] of Object.entries(SANCTIONED_ADDRESSES)) {
      expect(await chain.broadcast(withdrawal(chainId as ChainId, address!), t0)).toMatchObject({
        accepted: false,
        code: 'ADDRESS_REJECTED',
      })
    }
    const lower = SANCTIONED_ADDRESSES.polygon[0]!.toLowerCase()
    expect((await chain.broadcast(withdrawal('polygon', lower), t0)).accepted).toBe(false)
  })

  it('broadcasts anything else with the chain’s hash shape, the same hash for the same id', async () => {
    const address = '0x52908400098527886E0F7030069857D2E4169EE7'
    const first = await chain.broadcast(withdrawal('ethereum', address), t0)
    expect(first.accepted && isTxHash('ethereum', first.txHash)).toBe(true)
    expect(await chain.broadcast(withdrawal('ethereum', address), t0)).toEqual(first)
    expect(await chain.broadcast(withdrawal('ethereum', address, 'order-2'), t0)).not.toEqual(first)
  })

  it('counts one confirmation per block since the broadcast', async () => {
    const tx = { chain: 'tron' as const, txHash: 'ab'.repeat(32), broadcastAt: t0 }
    const at = (ms: number) => new Date(t0.getTime() + ms)
    expect(await chain.progress(tx, t0)).toEqual({ confirmations: 0, checkAgainAt: at(1_000) })
    expect(await chain.progress(tx, at(2_500))).toEqual({
      confirmations: 2,
      checkAgainAt: at(3_000),
    })
    const instant: ChainPayouts = new SandboxChainPayouts({ blockMs: 0 })
    expect((await instant.progress(tx, t0)).confirmations).toBeGreaterThan(1_000)
  })
})
