import { isValidBIC, isValidIBAN } from 'ibantools'
import { describe, expect, it } from 'vitest'
import { type BankingProvider, BankUnavailableError, type PayoutRequest } from './banking.ts'
import { SandboxBank } from './sandbox.ts'

const payout = (iban: string, id = 'order-1'): PayoutRequest => ({
  id,
  iban,
  bic: null,
  beneficiary: 'Anna Schmidt',
  amountMinor: 10_000n,
  currency: 'EUR',
  remittance: 'Rent',
})

describe('the sandbox bank', () => {
  const bank: BankingProvider = new SandboxBank({ payoutMs: 2_000 })
  const t0 = new Date('2025-06-01T12:00:00Z')
  const later = (ms: number) => new Date(t0.getTime() + ms)

  it('collects deposits on a valid IBAN (SEPA) or an account number per currency (SWIFT)', () => {
    const sepa = bank.collectionAccount('SEPA', 'EUR')
    expect(isValidIBAN(sepa.iban!)).toBe(true)
    expect(isValidBIC(sepa.bic)).toBe(true)
    expect(sepa.accountNumber).toBeNull()
    const numbers = ['EUR', 'USD', 'GBP'].map((code) => bank.collectionAccount('SWIFT', code))
    expect(
      numbers.every((account) => account.iban === null && /^\d+$/.test(account.accountNumber!)),
    ).toBe(true)
    expect(new Set(numbers.map((account) => account.accountNumber)).size).toBe(3)
    expect(() => bank.collectionAccount('SWIFT', 'JPY')).toThrow()
  })

  it('answers each call after SANDBOX_BANK_LATENCY_MS, as a bank’s API takes its time', async () => {
    const slow: BankingProvider = new SandboxBank({ payoutMs: 2_000, latencyMs: 200 })
    const started = performance.now()
    const submitted = await slow.submitPayout(payout('DE89370400440532013000'), t0)
    expect(performance.now() - started).toBeGreaterThanOrEqual(195)
    const asked = performance.now()
    if (!submitted.accepted) throw new Error('the sandbox bank refused a valid payout')
    await slow.payoutStatus({ reference: submitted.reference, submittedAt: t0 }, later(1))
    expect(performance.now() - asked).toBeGreaterThanOrEqual(195)
  })

  it('settles a payout SANDBOX_BANK_MS after it was submitted, the same one for the same id', async () => {
    const submitted = await bank.submitPayout(payout('DE89370400440532013000'), t0)
    expect(submitted).toEqual({
      accepted: true,
      reference: expect.stringMatching(/^SBX-S-[0-9A-F]{20}$/),
    })
    expect(await bank.submitPayout(payout('DE89 3704 0044 0532 0130 00'), t0)).toEqual(submitted)
    expect(await bank.submitPayout(payout('DE89370400440532013000', 'order-2'), t0)).not.toEqual(
      submitted,
    )
    const reference = submitted.accepted ? submitted.reference : ''
    expect(await bank.payoutStatus({ reference, submittedAt: t0 }, later(1_999))).toEqual({
      state: 'pending',
      checkAgainAt: later(2_000),
    })
    expect(await bank.payoutStatus({ reference, submittedAt: t0 }, later(2_000))).toEqual({
      state: 'settled',
    })
  })

  it('returns a payout to an IBAN ending in 0000 as ACCOUNT_CLOSED, when it would have settled', async () => {
    const submitted = await bank.submitPayout(payout('DE94370400440532010000'), t0)
    const reference = submitted.accepted ? submitted.reference : ''
    expect(reference).toMatch(/^SBX-R-/)
    expect((await bank.payoutStatus({ reference, submittedAt: t0 }, later(1_000))).state).toBe(
      'pending',
    )
    expect(await bank.payoutStatus({ reference, submittedAt: t0 }, later(2_000))).toMatchObject({
      state: 'returned',
      code: 'ACCOUNT_CLOSED',
    })
  })

  it('never answers for an IBAN ending in 9999', async () => {
    await expect(bank.submitPayout(payout('DE72370400440532019999'), t0)).rejects.toBeInstanceOf(
      BankUnavailableError,
    )
  })
})
