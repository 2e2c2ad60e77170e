/**
 * What the platform holds, as the parties holding it attest: the custodian of
 * its chain addresses and the bank of its accounts. The proof of balances
 * (server/domain/proofs) sets it against what people hold. The sandbox's
 * custody (sandbox.ts) and a real custodian's or bank's attestation API sit
 * behind it.
 */

/** One holding: a currency at one place (a chain's addresses, the bank's accounts). */
export interface Holding {
  /** currencies.uuid: a token on each chain is a holding of its own. */
  currency: string
  /** Where it is held: a chain id, or `bank`. */
  place: string
  /** Minor units of `currency`; never negative. */
  amountMinor: bigint
}

export interface Attestation {
  /** Who attests, as the proof shows it. */
  attestedBy: string
  attestedAt: Date
  holdings: Holding[]
}

export interface ReservesProvider {
  readonly name: string
  /** What is held for the tenant now. */
  attest(tenantId: string, now: Date): Promise<Attestation>
}
