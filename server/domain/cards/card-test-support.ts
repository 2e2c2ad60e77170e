import { generateKeyPairSync, randomBytes } from 'node:crypto'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import { expect } from 'vitest'
import type { Card } from '../../../contract/cards.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { createWallet, DEMO_PROGRAM, headers, signUp } from '../../test-support.ts'
import { credit, EUR } from '../ledger/ledger-test-support.ts'
import { CardCrypto } from './card-crypto.ts'
import { isLuhnValid } from './rules.ts'
import { printedCvv } from './service.ts'

export type V1Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** The demo tenant's prepaid EUR program (a card with its own account). */
export const PREPAID = DEMO_PROGRAM.prepaid
/** The demo tenant's EUR balance program (issue fee 5.00, monthly fee 1.00). */
export const EUR_BALANCE = DEMO_PROGRAM.balance
/** A valid delivery address for a PHYSICAL card. */
export const ADDRESS = {
  recipient_name: 'Ada Lovelace',
  line1: '12 St James’s Square',
  city: 'London',
  postal_code: 'SW1Y 4JH',
  country: 'GB',
}

/** The ledger account behind a fiat account. */
export async function ledgerAccountOf(app: FastifyInstance, fiatAccountId: string) {
  const row = await app.db
    .selectFrom('fiat_accounts')
    .select('ledger_account_id')
    .where('id', '=', fiatAccountId)
    .executeTakeFirstOrThrow()
  return row.ledger_account_id
}

/**
 * The v1 calls of a card test file against the app `app()` returns (set in
 * beforeAll): every answer is kept in `answers`, which the leak check at the
 * end of the file reads.
 */
export function cardCalls(app: () => FastifyInstance) {
  const answers: LightMyRequestResponse[] = []
  const call = async (
    token: string,
    method: V1Method,
    url: string,
    payload?: unknown,
    extra: Record<string, string> = {},
  ) => {
    const response = await app().inject({
      method,
      url: `/api/v1${url}`,
      headers: headers({ authorization: token, ...extra }),
      ...(payload !== undefined && { payload: payload as object }),
    })
    answers.push(response)
    return response
  }
  /** A signed-up, verified person with a personal wallet. */
  const person = async () => {
    const pair = await signUp(app(), { stepUp: true })
    const wallet = await createWallet(app(), pair.access_token)
    return { token: pair.access_token, wallet }
  }
  /** A VIRTUAL card on the fiat account `account` (the body takes `extra`), asserted 201. */
  const onAccount = async (token: string, account: string, extra: Record<string, unknown> = {}) =>
    ok<Card>(
      await call(token, 'POST', '/issuing/cards/balance', {
        fiat_account_id: account,
        form_factor: 'VIRTUAL',
        ...extra,
      }),
      201,
    )
  /** A new person's stand-alone virtual EUR card, its account holding `funds` (minor units). */
  const fundedCard = async (funds = 50_000n) => {
    const { token, wallet } = await person()
    const card = ok<Card>(
      await call(token, 'POST', '/issuing/cards/create', {
        wallet_uuid: wallet.uuid,
        program_id: PREPAID,
        form_factor: 'VIRTUAL',
      }),
      201,
    )
    const spendable = await ledgerAccountOf(app(), card.fiat_account.id)
    if (funds > 0n) await credit(app().db, DEMO_TENANT_ID, spendable, EUR, funds)
    return { token, wallet, card, spendable }
  }
  return { answers, call, person, onAccount, fundedCard }
}

/** The body of an answer that must have `status`. */
export const ok = <T>(response: LightMyRequestResponse, status = 200): T => {
  expect(response.statusCode, response.body).toBe(status)
  return response.json<T>()
}

/**
 * Card keys for a test app, and the card factory's view of them: pass
 * `env` to createTestApp, read a card's printed security code with `cvvOf`
 * (what its holder types to activate it); `crypto` is the app's CardCrypto.
 */
export function testCardKeys() {
  const dataKey = randomBytes(32)
  const cvk = randomBytes(32)
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
  const crypto = new CardCrypto({ cardDataKey: dataKey, cardCvk: cvk, cardSecretPrivateKey: pem })
  return {
    cvk,
    crypto,
    env: {
      CARD_DATA_KEY: dataKey.toString('base64url'),
      CARD_CVK: cvk.toString('base64url'),
      CARD_SECRET_PRIVATE_KEY: pem,
    },
    cvvOf: (app: FastifyInstance, tenantId: string, cardId: string) =>
      printedCvv(app.db, crypto, { tenantId, cardId }),
  }
}

/**
 * Every Luhn-valid run of exactly 16 digits in a text, except the fraction of
 * a decimal number (pino's responseTime: 1.6907400000000052) and a run inside
 * a hex token of 32 or more characters with a letter in it (a SHA-256 hash
 * holds a Luhn-valid 16-digit run by chance often enough to fail a dump of
 * hundreds of rows now and then; a card number is never stored as hex).
 */
export const cardNumbersIn = (text: string) =>
  [
    ...text
      .replace(/[0-9a-f]{32,}/gi, (token) => (/[a-f]/i.test(token) ? '<hex>' : token))
      .matchAll(/(?<![0-9.])[0-9]{16}(?![0-9])/g),
  ]
    .map((m) => m[0])
    .filter(isLuhnValid)

/**
 * The leak check, run last in a card test file: no answer, log line or row
 * of any table (as text) holds a card number, nor a number's first twelve
 * digits. `revealed` are the numbers the file saw through the secret exchange.
 */
export async function expectNoCardNumbers(
  app: FastifyInstance,
  seen: { logs: string[]; answers?: LightMyRequestResponse[]; revealed?: string[] },
): Promise<void> {
  const revealed = seen.revealed ?? []
  for (const response of seen.answers ?? []) {
    expect(cardNumbersIn(response.body), response.body).toEqual([])
  }
  const logText = seen.logs.join('')
  expect(seen.logs.length).toBeGreaterThan(0)
  expect(cardNumbersIn(logText)).toEqual([])
  for (const pan of revealed) expect(logText).not.toContain(pan)

  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(app.db)
  expect(tables.rows.map((row) => row.table_name)).toContain('cards')
  let dumped = 0
  for (const { table_name } of tables.rows) {
    const rows = await sql<{
      row: string
    }>`select t::text as row from ${sql.table(table_name)} t`.execute(app.db)
    for (const { row } of rows.rows) {
      dumped++
      expect(cardNumbersIn(row), `${table_name}: ${row}`).toEqual([])
      for (const pan of revealed) {
        expect(row).not.toContain(pan)
        expect(row).not.toContain(pan.slice(0, 12))
      }
    }
  }
  expect(dumped).toBeGreaterThan(100)
}
