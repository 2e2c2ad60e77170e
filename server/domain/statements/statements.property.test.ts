import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import { toMinor } from '../../../contract/money.ts'
import { bearer, createTestApp, describeServer, headers } from '../../test-support.ts'
import { cardCalls, EUR_BALANCE, ok, testCardKeys } from '../cards/card-test-support.ts'
import { bookedAt } from '../ledger/booking-time.ts'
import { CUR, fund } from '../orders/order-fixtures.ts'
import { statementCalls } from './statement-test-support.ts'

/*
 * The promise: opening + movements = closing, to the minor unit,
 * against the ledger. Random histories — money into a wallet in two
 * currencies, SEPA credits into a card's account, card payments authorised,
 * cleared in part, reversed, refunded — each booked at its own time over two
 * months, then statements of random periods of the wallet and the account,
 * read back as JSON and held against the ledger's postings and balances.
 */

const DAY = 86_400_000
const SPAN = 60 * DAY

const step = fc.oneof(
  fc.record({
    kind: fc.constant('fund' as const),
    currency: fc.constantFrom(CUR.EUR, CUR.USDT_TRON),
    cents: fc.integer({ min: 1, max: 50_000 }),
  }),
  fc.record({ kind: fc.constant('credit' as const), cents: fc.integer({ min: 1, max: 30_000 }) }),
  fc.record({
    kind: fc.constant('authorise' as const),
    cents: fc.integer({ min: 1, max: 20_000 }),
  }),
  fc.record({ kind: fc.constant('clear' as const), share: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('reverse' as const) }),
  fc.record({ kind: fc.constant('refund' as const), share: fc.integer({ min: 1, max: 100 }) }),
)

const euros = (cents: number) => (cents / 100).toFixed(2)
/** EUR keeps cents, USDT six places (migration 0004). */
const DECIMALS: Record<string, number> = { EUR: 2, USDT: 6 }

interface JsonStatement {
  currencies: {
    currency: string
    chain: string | null
    opening_balance: string
    money_in: string
    money_out: string
    closing_balance: string
    movements: { booked_at: string; amount: string; balance: string }[]
  }[]
}

describeServer('statement reconciliation on random histories', () => {
  let app: FastifyInstance
  const keys = testCardKeys()
  beforeAll(async () => {
    app = await createTestApp(keys.env)
  })
  afterAll(() => app?.close())

  const { person, onAccount } = cardCalls(() => app)
  const { made, sepaCredit, network } = statementCalls(() => app)

  /** The ledger's own sum of the accounts' postings booked before `at`, per currency code. */
  async function ledgerAt(accounts: string[], at: Date) {
    const rows = await app.db
      .selectFrom('postings as p')
      .innerJoin('journal_entries as e', 'e.id', 'p.entry_id')
      .innerJoin('currencies as c', 'c.uuid', 'p.currency_uuid')
      .select(['c.uuid', sql<string>`sum(p.amount_minor)`.as('sum')])
      .where('p.account_id', 'in', accounts)
      .where('e.created_at', '<', at)
      .groupBy('c.uuid')
      .execute()
    return new Map(rows.map((row) => [row.uuid, BigInt(row.sum)]))
  }

  /** What account_balances holds for the accounts now, per currency. */
  async function balancesNow(accounts: string[]) {
    const rows = await app.db
      .selectFrom('account_balances')
      .select(['currency_uuid', sql<string>`sum(balance_minor)`.as('sum')])
      .where('account_id', 'in', accounts)
      .groupBy('currency_uuid')
      .execute()
    return new Map(rows.map((row) => [row.currency_uuid, BigInt(row.sum)]))
  }

  it('opening + Σ movements = closing to the minor unit, and both ends are the ledger’s balances then', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: SPAN - 1 }), step), {
          minLength: 3,
          maxLength: 14,
        }),
        // Periods that start anywhere in the history's first half and mostly reach into it.
        fc.integer({ min: 0, max: SPAN / 2 }),
        fc.integer({ min: 1, max: SPAN + DAY }),
        async (history, start, length) => {
          const now = Date.now()
          const { token, wallet } = await person()
          const account = ok<FiatAccount>(
            await app.inject({
              method: 'POST',
              url: `/api/v2/fiat-accounts/${wallet.uuid}`,
              headers: headers(bearer(token)),
              payload: { program_id: EUR_BALANCE },
            }),
            201,
          )
          const origin = now - SPAN - DAY
          await bookedAt(new Date(origin), () => sepaCredit(account, '5.00'))
          const card = await bookedAt(new Date(origin), () => onAccount(token, account.id))
          const open: { id: string; cents: number }[] = []
          const settled: { id: string; left: number }[] = []
          const steps = [...history].sort((a, b) => a[0] - b[0])
          for (const [offset, next] of steps) {
            await bookedAt(new Date(origin + DAY + offset), async () => {
              switch (next.kind) {
                case 'fund':
                  return fund(app.db, wallet.uuid, next.currency, euros(next.cents))
                case 'credit':
                  return void (await sepaCredit(account, euros(next.cents)))
                case 'authorise': {
                  const answer = await network(card.id, {
                    type: 'AUTHORIZATION',
                    amount: euros(next.cents),
                    merchant: { name: 'Shop', mcc: '5411', city: 'Berlin', country: 'DE' },
                  })
                  if (answer.status === 'APPROVED') open.push({ id: answer.id, cents: next.cents })
                  return
                }
                case 'clear': {
                  const held = open.shift()
                  if (!held) return
                  const cents = Math.max(1, Math.floor((held.cents * next.share) / 100))
                  await network(card.id, {
                    type: 'CLEARING',
                    amount: euros(cents),
                    authorization_id: held.id,
                  })
                  settled.push({ id: held.id, left: cents })
                  return
                }
                case 'reverse': {
                  const held = open.pop()
                  if (!held) return
                  return void (await network(card.id, {
                    type: 'REVERSAL',
                    amount: euros(held.cents),
                    authorization_id: held.id,
                  }))
                }
                case 'refund': {
                  const paid = settled.find((item) => item.left > 0)
                  if (!paid) return
                  const cents = Math.max(1, Math.floor((paid.left * next.share) / 100))
                  paid.left -= cents
                  return void (await network(card.id, {
                    type: 'REFUND',
                    amount: euros(cents),
                    authorization_id: paid.id,
                  }))
                }
              }
            })
          }

          const from = new Date(origin + start)
          const to = new Date(Math.min(from.getTime() + length, now + DAY / 2))
          if (to <= from) return
          const scopes = [
            {
              scope: { wallet_uuid: wallet.uuid },
              accounts: (
                await app.db
                  .selectFrom('ledger_accounts')
                  .select('id')
                  .where('wallet_id', '=', wallet.uuid)
                  .where('kind', 'in', ['user_wallet', 'held'])
                  .execute()
              ).map((row) => row.id),
            },
            {
              scope: { fiat_account_id: account.id },
              accounts: (
                await app.db
                  .selectFrom('fiat_accounts')
                  .select(['ledger_account_id', 'hold_ledger_account_id'])
                  .where('id', '=', account.id)
                  .executeTakeFirstOrThrow()
                  .then((row) => [row.ledger_account_id, row.hold_ledger_account_id])
              ).filter((id): id is string => id !== null),
            },
          ]
          for (const { scope, accounts } of scopes) {
            const { file } = await made(token, {
              scope,
              from: from.toISOString(),
              to: to.toISOString(),
              format: 'json',
            })
            const body = JSON.parse(file.toString('utf8')) as JsonStatement
            const [opening, closing, current] = await Promise.all([
              ledgerAt(accounts, from),
              ledgerAt(accounts, to),
              balancesNow(accounts),
            ])
            const uuidOf = (code: string): string => (code === 'EUR' ? CUR.EUR : CUR.USDT_TRON)
            for (const section of body.currencies) {
              const decimals = DECIMALS[section.currency]!
              const minor = (amount: string) => toMinor(amount, decimals)
              const open = minor(section.opening_balance)
              const moved = section.movements.reduce((sum, line) => sum + minor(line.amount), 0n)
              expect(open + moved).toBe(minor(section.closing_balance))
              expect(minor(section.money_in) - minor(section.money_out)).toBe(moved)
              expect(section.movements.at(-1)?.balance ?? section.opening_balance).toBe(
                section.closing_balance,
              )
              expect(open).toBe(opening.get(uuidOf(section.currency)) ?? 0n)
              expect(minor(section.closing_balance)).toBe(
                closing.get(uuidOf(section.currency)) ?? 0n,
              )
              if (to.getTime() > Date.now()) {
                expect(minor(section.closing_balance)).toBe(
                  current.get(uuidOf(section.currency)) ?? 0n,
                )
              }
              for (const line of section.movements) {
                const at = Date.parse(line.booked_at)
                expect(at >= from.getTime() && at < to.getTime()).toBe(true)
              }
            }
            // Every currency the ledger holds a balance or a movement of is on the statement.
            const shown = new Set(body.currencies.map((c) => uuidOf(c.currency)))
            for (const [currency, sum] of [...opening, ...closing]) {
              if (sum !== 0n) expect(shown.has(currency)).toBe(true)
            }
          }
        },
      ),
      { numRuns: 8 },
    )
  })
})
