import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect } from 'vitest'
import type { CardList } from '../../../contract/cards.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { captureLogs, createFiatAccount, createTestApp } from '../../test-support.ts'
import { FIAT } from '../issuing/default-programs.ts'
import { credit } from '../ledger/ledger-test-support.ts'
import {
  cardCalls,
  EUR_BALANCE,
  expectNoCardNumbers,
  ledgerAccountOf,
  ok,
  testCardKeys,
} from './card-test-support.ts'

export const EUR = FIAT.EUR
export const SHOP = { name: 'Corner Shop', mcc: '5411', city: 'Lisbon', country: 'PT' }

/**
 * The app of the delivery, fee and card creation tests, built once per file (beforeAll) with a
 * courier that moves at once (the tests drive it with runDue) and its logs captured, and the
 * calls they share. Every answer is kept for the leak check that ends each file.
 */
export function cardDeliveryFeesApp() {
  let app: FastifyInstance
  const keys = testCardKeys()
  const logs = captureLogs()
  const calls = cardCalls(() => app)

  beforeAll(async () => {
    app = await createTestApp({ SANDBOX_SHIPPING_MS: '0', ...keys.env }, { logStream: logs.stream })
  })
  afterAll(() => app?.close())

  const ledgerOf = (fiatAccountId: string) => ledgerAccountOf(app, fiatAccountId)

  /** A balance account (issue fee 5.00) holding `minor`. */
  async function fundedAccount(token: string, walletId: string, minor: bigint) {
    const account = await createFiatAccount(app, token, walletId, EUR_BALANCE)
    if (minor > 0n) await credit(app.db, DEMO_TENANT_ID, await ledgerOf(account.id), EUR, minor)
    return account
  }

  const cardCount = async (token: string) =>
    ok<CardList>(await calls.call(token, 'GET', '/issuing/cards')).total

  /** Runs every due job (the courier's and the fee's) as if it were `now`. */
  const runJobs = (now = new Date()) => app.jobs.runDue({ now, limit: 1_000 })

  const network = (body: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/api/sandbox/card-transactions',
      headers: { 'content-type': 'application/json' },
      payload: { currency: 'EUR', ...body },
    })

  /** The leak check, run last in the file: no answer, log line or row holds a card number. */
  const expectNoLeaks = async (atLeast: number) => {
    console.log('ANSWERS', calls.answers.length)
    expect(calls.answers.length).toBeGreaterThan(atLeast)
    await expectNoCardNumbers(app, { logs: logs.lines, answers: calls.answers })
  }

  return {
    app: () => app,
    keys,
    ...calls,
    ledgerOf,
    fundedAccount,
    cardCount,
    runJobs,
    network,
    expectNoLeaks,
  }
}
