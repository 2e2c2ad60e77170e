import { type Kysely, sql } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import type { Attestation, ReservesProvider } from './reserves.ts'

/**
 * The sandbox's custody: what the sandbox chain and Sandbox Bank hold at the
 * tenant's addresses and accounts. They keep no books of their own (their
 * answers follow from the request and the clock), so what sits with them is
 * what crossed them: everything the tenant received from outside less
 * everything it paid out — the movements of its `external` ledger account,
 * negated, per currency. A real custodian answers from its own books; this
 * one cannot disagree with the ledger, except by the platform's own money
 * (fees earned, a treasury short of what it sold).
 */
export class SandboxCustody implements ReservesProvider {
  readonly name = 'sandbox'

  constructor(private readonly db: Kysely<DB>) {}

  async attest(tenantId: string, now: Date): Promise<Attestation> {
    const { rows } = await sql<{ currency: string; chain: string | null; held: string }>`
      select b.currency_uuid as currency, c.chain, (-sum(b.balance_minor))::text as held
      from ledger_accounts a
      join account_balances b on b.account_id = a.id
      join currencies c on c.uuid = b.currency_uuid
      where a.tenant_id = ${tenantId}::uuid and a.kind = 'external' and a.wallet_id is null
      group by b.currency_uuid, c.chain
    `.execute(this.db)
    return {
      attestedBy: 'Sandbox Custody and Sandbox Bank AG',
      attestedAt: now,
      holdings: rows
        .map((row) => ({
          currency: row.currency,
          place: row.chain ?? 'bank',
          amountMinor: BigInt(row.held),
        }))
        // Nothing held is not a holding; a negative external balance (paid out more than came in) holds nothing.
        .filter((holding) => holding.amountMinor > 0n),
    }
  }
}
