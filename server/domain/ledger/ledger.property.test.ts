import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTenant, createTestApp, describeServer } from '../../test-support.ts'
import { isLedgerFailure } from './errors.ts'
import {
  balance,
  credit,
  EUR,
  expectLedgerInvariants,
  newWallet,
  postAlone,
  USDT_TRON,
} from './ledger-test-support.ts'
import { transfer } from './rules.ts'

/**
 * Random histories run against the real service and database, then checked
 * against a model (a map of balances) and the ledger's SQL invariants. Each
 * run gets a tenant of its own, so runs do not see each other's money.
 */

const CURRENCIES = [EUR, USDT_TRON]
const WALLETS = 4

const command = fc.record({
  from: fc.nat({ max: WALLETS - 1 }),
  to: fc.nat({ max: WALLETS - 1 }),
  currency: fc.constantFrom(...CURRENCIES),
  // Often more than the sender has: refusals are half the point.
  amount: fc.bigInt({ min: 1n, max: 400n }),
})

async function fundedWallets(app: FastifyInstance, funding: bigint[]) {
  const tenantId = await createTenant(app)
  const wallets = []
  for (let i = 0; i < WALLETS; i++) {
    const { accounts } = await newWallet(app.db, tenantId)
    wallets.push(accounts.user_wallet)
  }
  const model = new Map<string, bigint>()
  for (const [i, account] of wallets.entries()) {
    for (const currency of CURRENCIES) {
      const amount = funding[i] ?? 0n
      if (amount > 0n) await credit(app.db, tenantId, account, currency, amount)
      model.set(`${account}|${currency}`, amount)
    }
  }
  return { tenantId, wallets, model }
}

describeServer('ledger properties', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  it('any sequence of transfers, self-transfers and overdrafts matches the model and keeps the invariants', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.bigInt({ min: 0n, max: 500n }), { minLength: WALLETS, maxLength: WALLETS }),
        fc.array(command, { minLength: 1, maxLength: 12 }),
        async (funding, commands) => {
          const { tenantId, wallets, model } = await fundedWallets(app, funding)
          const refusedKeys: string[] = []
          for (const [step, { from, to, currency, amount }] of commands.entries()) {
            const source = wallets[from]!
            const target = wallets[to]!
            const key = `step:${step}`
            const had = model.get(`${source}|${currency}`)!
            // An entry is judged by its net effect: a self-transfer nets to zero.
            const expectAccepted = source === target || had >= amount
            const outcome = await postAlone(app.db, {
              tenantId,
              kind: 'transfer',
              idempotencyKey: key,
              postings: transfer(source, target, currency, amount),
            }).then(
              () => 'accepted' as const,
              (error: unknown) => {
                if (isLedgerFailure(error, 'INSUFFICIENT_FUNDS')) return 'refused' as const
                throw error
              },
            )
            expect(outcome).toBe(expectAccepted ? 'accepted' : 'refused')
            if (outcome === 'accepted') {
              model.set(`${source}|${currency}`, had - amount)
              model.set(`${target}|${currency}`, model.get(`${target}|${currency}`)! + amount)
            } else {
              refusedKeys.push(key)
            }
          }

          for (const account of wallets) {
            for (const currency of CURRENCIES) {
              expect(await balance(app.db, account, currency)).toBe(
                model.get(`${account}|${currency}`),
              )
            }
          }
          if (refusedKeys.length > 0) {
            const traces = await app.db
              .selectFrom('journal_entries')
              .select('id')
              .where('tenant_id', '=', tenantId)
              .where('idempotency_key', 'in', refusedKeys)
              .execute()
            expect(traces, 'refused transfers left entries').toEqual([])
          }
          await expectLedgerInvariants(app)
        },
      ),
      { numRuns: 30 },
    )
  })

  it('many writers at once over the same accounts neither deadlock nor make or lose money', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 20, maxLength: 40 }), async (commands) => {
        const start = 200n
        const { tenantId, wallets } = await fundedWallets(app, Array(WALLETS).fill(start))
        // All at once: PostgreSQL runs them on concurrent connections, PGlite queues them.
        const outcomes = await Promise.all(
          commands.map(({ from, to, currency, amount }, step) =>
            postAlone(app.db, {
              tenantId,
              kind: 'transfer',
              idempotencyKey: `parallel:${step}`,
              postings: transfer(wallets[from]!, wallets[to]!, currency, amount),
            }).then(
              () => 'accepted',
              (error: unknown) => {
                if (isLedgerFailure(error, 'INSUFFICIENT_FUNDS')) return 'refused'
                throw error
              },
            ),
          ),
        )

        for (const currency of CURRENCIES) {
          let total = 0n
          for (const account of wallets) total += await balance(app.db, account, currency)
          expect(total).toBe(start * BigInt(WALLETS))
        }
        const entries = await app.db
          .selectFrom('journal_entries')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .where('tenant_id', '=', tenantId)
          .where('kind', '=', 'transfer')
          .executeTakeFirstOrThrow()
        expect(Number(entries.count)).toBe(outcomes.filter((o) => o === 'accepted').length)
        await expectLedgerInvariants(app)
      }),
      { numRuns: 10 },
    )
  })
})
