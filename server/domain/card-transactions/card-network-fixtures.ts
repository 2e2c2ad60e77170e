import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll } from 'vitest'
import type { CardTransaction, Merchant } from '../../../contract/card-transactions.ts'
import { createTestApp } from '../../test-support.ts'
import { cardCalls, ok, testCardKeys } from '../cards/card-test-support.ts'
import { balance, EUR } from '../ledger/ledger-test-support.ts'

export const SHOP: Merchant = { name: 'Corner Shop', mcc: '5411', city: 'Lisbon', country: 'PT' }

/**
 * The card network tests' app, built once per file (beforeAll) with card
 * keys of its own, and what they share: cardholders with funded stand-alone
 * cards, their holds, and the sandbox network's messages.
 */
export function cardNetworkApp() {
  let app: FastifyInstance
  const keys = testCardKeys()

  beforeAll(async () => {
    app = await createTestApp(keys.env)
  })
  afterAll(() => app?.close())

  const { call, fundedCard } = cardCalls(() => app)

  /** The token of each card's owner. */
  const owners = new Map<string, string>()
  const tokenOf = (cardId: string) => owners.get(cardId) ?? ''

  /** A new user with a stand-alone EUR card whose account holds `funds` (minor units). */
  async function cardholder(funds = 50_000n) {
    const held = await fundedCard(funds)
    owners.set(held.card.id, held.token)
    return held
  }

  async function holdOf(fiatAccountId: string) {
    const row = await app.db
      .selectFrom('fiat_accounts')
      .select('hold_ledger_account_id')
      .where('id', '=', fiatAccountId)
      .executeTakeFirstOrThrow()
    return row.hold_ledger_account_id ? balance(app.db, row.hold_ledger_account_id, EUR) : 0n
  }

  const network = (body: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/api/sandbox/card-transactions',
      headers: { 'content-type': 'application/json' },
      payload: body,
    })

  async function send(body: Record<string, unknown>) {
    return ok<CardTransaction>(await network({ currency: 'EUR', ...body }), 201)
  }

  const authorize = (cardId: string, amount: string, merchant: Merchant = SHOP) =>
    send({ card_id: cardId, type: 'AUTHORIZATION', amount, merchant })

  return {
    app: () => app,
    keys,
    call,
    tokenOf,
    cardholder,
    holdOf,
    network,
    send,
    authorize,
  }
}
