import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ActivityPage } from '../../../contract/activity.ts'
import type { Merchant } from '../../../contract/card-transactions.ts'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import type {
  Statement,
  StatementLink,
  StatementVerification,
} from '../../../contract/statements.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import { cardCalls, EUR_BALANCE, ok, testCardKeys } from '../cards/card-test-support.ts'
import { bookedAt } from '../ledger/booking-time.ts'
import { CUR, fund } from '../orders/order-fixtures.ts'
import { VERIFY_CALLS, VERIFY_MISSES } from './routes.ts'
import { statementCalls } from './statement-test-support.ts'

const CAFE: Merchant = { name: 'Café Lisboa', mcc: '5814', city: 'Lisbon', country: 'PT' }
const HOUR = 3_600_000

/** A period around now: what every test here asks for unless it says otherwise. */
const around = () => ({
  from: new Date(Date.now() - HOUR).toISOString(),
  to: new Date(Date.now() + HOUR).toISOString(),
})

interface JsonStatement {
  code: string
  account: { title: string; details: Record<string, string> }
  holder: { name: string }
  currencies: {
    currency: string
    opening_balance: string
    money_in: string
    money_out: string
    closing_balance: string
    movements: { description: string; amount: string; balance: string }[]
  }[]
}

describeServer(
  'statements: asked for, rendered by a job, downloaded by their owner, verified by anyone',
  () => {
    let app: FastifyInstance
    const keys = testCardKeys()
    beforeAll(async () => {
      app = await createTestApp(keys.env)
    })
    afterAll(() => app?.close())

    const { person, onAccount } = cardCalls(() => app)
    const { ask, get, runJobs, made, verify, sepaCredit, network } = statementCalls(() => app)

    /** A person with a euro balance account, a card on it, and money that came and went. */
    async function spender() {
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
      await sepaCredit(account, '100.00')
      // The card's issue fee (€5) comes from the account.
      const card = await onAccount(token, account.id)
      const paid = await network(card.id, {
        type: 'AUTHORIZATION',
        amount: '12.50',
        merchant: CAFE,
      })
      await network(card.id, { type: 'CLEARING', amount: '12.50', authorization_id: paid.id })
      await network(card.id, { type: 'REFUND', amount: '2.50', authorization_id: paid.id })
      // Held, then released: it never moved the account's money.
      const released = await network(card.id, {
        type: 'AUTHORIZATION',
        amount: '5.00',
        merchant: CAFE,
      })
      await network(card.id, { type: 'REVERSAL', amount: '5.00', authorization_id: released.id })
      return { token, wallet, account, card }
    }

    describe('asking and rendering', () => {
      it('a card account’s statement: opening, every movement in people’s words with its running balance, closing', async () => {
        const { token, account } = await spender()
        const queued = ok<Statement>(
          await ask(token, { scope: { fiat_account_id: account.id }, ...around(), format: 'json' }),
          202,
        )
        expect(queued).toMatchObject({
          status: 'queued',
          progress: 0,
          sha256: null,
          format: 'json',
        })
        expectProblem(await get(token, `/statements/${queued.id}/file`), 409, 'STATEMENT_NOT_READY')

        const { statement, file, response } = await made(token, {
          scope: { fiat_account_id: account.id },
          ...around(),
          format: 'json',
        })
        expect(statement.sha256).toBe(createHash('sha256').update(file).digest('hex'))
        expect(response.headers['x-content-sha256']).toBe(statement.sha256)
        expect(response.headers['content-disposition']).toMatch(
          new RegExp(
            `^attachment; filename="statement-\\d{4}-\\d{2}-\\d{2}-\\d{4}-\\d{2}-\\d{2}-${statement.code}\\.json"$`,
          ),
        )
        const body = JSON.parse(file.toString('utf8')) as JsonStatement
        expect(body.code).toBe(statement.code)
        expect(body.account.details).toMatchObject({
          IBAN: expect.stringMatching(/^[A-Z]{2}\d{2}( [A-Z0-9]{1,4})+$/),
        })
        expect(body.currencies).toEqual([
          {
            currency: 'EUR',
            chain: null,
            opening_balance: '0.00',
            money_in: '102.50',
            money_out: '17.50',
            closing_balance: '85.00',
            movements: [
              expect.objectContaining({
                description: 'From Lukas Becker',
                amount: '100.00',
                balance: '100.00',
              }),
              expect.objectContaining({
                description: 'Card issue fee',
                amount: '-5.00',
                balance: '95.00',
              }),
              expect.objectContaining({
                description: 'Café Lisboa',
                amount: '-12.50',
                balance: '82.50',
              }),
              expect.objectContaining({
                description: 'Refund: Café Lisboa',
                amount: '2.50',
                balance: '85.00',
              }),
            ],
          },
        ])
      })

      it('in Russian when asked, as a card’s statement; and as CSV an accountant can sum', async () => {
        const { token, card } = await spender()
        const ru = await made(token, {
          scope: { card_id: card.id },
          ...around(),
          format: 'json',
          language: 'ru',
        })
        const body = JSON.parse(ru.file.toString('utf8')) as JsonStatement
        expect(body.account.title).toBe(`Карта ·· ${card.last4}`)
        expect(body.currencies[0]!.movements.map((m) => m.description)).toEqual([
          'Lukas Becker',
          'Плата за выпуск карты',
          'Café Lisboa',
          'Возврат: Café Lisboa',
        ])

        const csv = await made(token, { scope: { card_id: card.id }, ...around(), format: 'csv' })
        expect(csv.response.headers['content-type']).toBe('text/csv; charset=utf-8')
        const rows = csv.file.toString('utf8').trimEnd().split('\r\n')
        expect(rows[0]).toBe(
          'statement_code,currency,chain,row,booked_at,description,amount,balance,entry_id,activity_id',
        )
        expect(rows.map((row) => row.split(',')[3])).toEqual([
          'row',
          'opening',
          'movement',
          'movement',
          'movement',
          'movement',
          'closing',
        ])
        expect(rows.at(-1)).toContain(',85.00,')
      })

      it('a PDF: A4 pages with DejaVu Sans embedded, numbered, its hash the one the statement carries', async () => {
        const { token, wallet } = await spender()
        await fund(app.db, wallet.uuid, CUR.EUR, '250.00')
        await fund(app.db, wallet.uuid, CUR.USDT_TRON, '40')
        const { statement, file, response } = await made(token, {
          scope: { wallet_uuid: wallet.uuid },
          ...around(),
          format: 'pdf',
          language: 'ru',
          time_zone: 'Europe/Berlin',
        })
        expect(response.headers['content-type']).toBe('application/pdf')
        expect(file.subarray(0, 5).toString('latin1')).toBe('%PDF-')
        const text = file.toString('latin1')
        expect(text).toMatch(/\/FontName \/[A-Z]{6}\+DejaVuSans\b/)
        expect(text).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/)
        expect(statement).toMatchObject({
          language: 'ru',
          time_zone: 'Europe/Berlin',
          size: file.length,
        })
      })

      it('a wallet’s statement counts what is held for an order as the wallet’s: a hold moves nothing', async () => {
        const { token, wallet } = await spender()
        await fund(app.db, wallet.uuid, CUR.EUR, '250.00')
        const { file } = await made(token, {
          scope: { wallet_uuid: wallet.uuid },
          ...around(),
          format: 'json',
        })
        const body = JSON.parse(file.toString('utf8')) as JsonStatement
        expect(
          body.currencies.map((c) => [c.currency, c.opening_balance, c.closing_balance]),
        ).toEqual([['EUR', '0.00', '250.00']])
        // A ledger entry no activity item stands for is worded by its kind.
        expect(body.currencies[0]!.movements[0]!.description).toBe('Other movement (test_credit)')
      })
    })

    it('each movement is dated when it was booked, and a period holds only its own', async () => {
      const { token, account } = await spender()
      const march = (day: number) => new Date(`2026-03-${String(day).padStart(2, '0')}T09:30:00Z`)
      await bookedAt(march(3), () => sepaCredit(account, '20.00', 'Anna Schmidt'))
      await bookedAt(march(20), () => sepaCredit(account, '30.00', 'Lukas Becker'))
      const { file } = await made(token, {
        scope: { fiat_account_id: account.id },
        from: march(1).toISOString(),
        to: march(10).toISOString(),
        format: 'json',
      })
      const body = JSON.parse(file.toString('utf8')) as JsonStatement & {
        currencies: { movements: { booked_at: string }[] }[]
      }
      expect(body.currencies[0]!.movements).toEqual([
        expect.objectContaining({
          booked_at: march(3).toISOString(),
          description: 'From Anna Schmidt',
          amount: '20.00',
        }),
      ])
      expect(body.currencies[0]!).toMatchObject({
        opening_balance: '0.00',
        closing_balance: '20.00',
      })
    })

    describe('what can be asked', () => {
      it('a period that is empty, too long, in the future or in an unknown zone is 422 naming the field', async () => {
        const { token, account } = await spender()
        const scope = { fiat_account_id: account.id }
        const refused = async (body: Record<string, unknown>, field: string) => {
          const problem = expectProblem(
            await ask(token, { scope, format: 'pdf', ...body }),
            422,
            'VALIDATION_FAILED',
          )
          expect(problem.errors?.map((error) => error.field)).toContain(field)
        }
        const now = Date.now()
        const at = (ms: number) => new Date(now + ms).toISOString()
        await refused({ from: at(0), to: at(0) }, '/body/from')
        await refused({ from: at(-400 * 24 * HOUR), to: at(0) }, '/body/to')
        await refused({ from: at(0), to: at(60 * 24 * HOUR) }, '/body/to')
        await refused({ ...around(), time_zone: 'Mars/Olympus' }, '/body/time_zone')
        await refused({ ...around(), format: 'docx' }, '/body/format')
        await refused(
          { ...around(), scope: { wallet_uuid: account.wallet_uuid, card_id: account.id } },
          '/body/scope',
        )
      })

      it('another person’s wallet, account, card or statement is 404, never theirs', async () => {
        const owner = await spender()
        const stranger = await person()
        const scopes = [
          [{ wallet_uuid: owner.wallet.uuid }, 'WALLET_NOT_FOUND'],
          [{ fiat_account_id: owner.account.id }, 'FIAT_ACCOUNT_NOT_FOUND'],
          [{ card_id: owner.card.id }, 'CARD_NOT_FOUND'],
        ] as const
        for (const [scope, code] of scopes) {
          expectProblem(await ask(stranger.token, { scope, ...around(), format: 'pdf' }), 404, code)
        }
        const theirs = await made(owner.token, { scope: scopes[0][0], ...around(), format: 'csv' })
        expectProblem(
          await get(stranger.token, `/statements/${theirs.statement.id}`),
          404,
          'STATEMENT_NOT_FOUND',
        )
        expectProblem(
          await get(stranger.token, `/statements/${theirs.statement.id}/file`),
          404,
          'STATEMENT_NOT_FOUND',
        )
      })

      it('the same request_id and body answer the first statement; another body is 409', async () => {
        const { token, account } = await spender()
        const body = {
          scope: { fiat_account_id: account.id },
          ...around(),
          format: 'pdf',
          request_id: 'march-1',
        }
        const first = ok<Statement>(await ask(token, body), 202)
        const again = ok<Statement>(await ask(token, body), 202)
        expect(again.id).toBe(first.id)
        expectProblem(await ask(token, { ...body, format: 'csv' }), 409, 'IDEMPOTENCY_CONFLICT')
        const header = ok<Statement>(
          await ask(token, { ...body, request_id: undefined }, { 'idempotency-key': 'march-1' }),
          202,
        )
        expect(header.id).toBe(first.id)
        // Without a key, each request is a statement of its own.
        const { request_id: _, ...unkeyed } = body
        const one = ok<Statement>(await ask(token, unkeyed), 202)
        expect(one.id).not.toBe(first.id)
        await runJobs()
      })
    })

    describe('receipts', () => {
      it('an activity item’s receipt is a PDF for its owner; another person’s item is 404', async () => {
        const { token } = await spender()
        const feed = ok<ActivityPage>(await get(token, '/activity?type=card_purchase'))
        const item = feed.data[0]!
        const receipt = await get(
          token,
          `/activity/${item.id}/receipt?language=ru&time_zone=Europe/Berlin`,
        )
        expect(receipt.statusCode, receipt.body).toBe(200)
        expect(receipt.headers['content-type']).toBe('application/pdf')
        expect(receipt.headers['content-disposition']).toBe(
          `attachment; filename="receipt-${item.created_at.slice(0, 10)}-${item.id}.pdf"`,
        )
        expect(receipt.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-')
        expectProblem(
          await get(token, `/activity/${item.id}/receipt?time_zone=Mars/Olympus`),
          422,
          'VALIDATION_FAILED',
        )
        const stranger = await person()
        expectProblem(
          await get(stranger.token, `/activity/${item.id}/receipt`),
          404,
          'ACTIVITY_NOT_FOUND',
        )
      })
    })

    describe('verifying (public)', () => {
      it('by code in any case and grouping, by file and by hash: initials, last four, period, hash — nothing more', async () => {
        const { token, account } = await spender()
        const { statement, file } = await made(token, {
          scope: { fiat_account_id: account.id },
          ...around(),
          format: 'pdf',
        })
        const expected: StatementVerification = {
          code: statement.code,
          holder_initials: expect.stringMatching(/^(\p{Lu}\. \p{Lu}\.|–)$/u) as unknown as string,
          account_last4: account.bank_details!.iban.slice(-4),
          from: statement.from,
          to: statement.to,
          sha256: statement.sha256!,
        }
        const grouped = statement.code.toLowerCase().replace(/(.{4})(?!$)/g, '$1-')
        for (const answer of [
          await verify(`/${statement.code}`),
          await verify(`/${grouped}`),
          await verify('/file', file, 'application/pdf'),
          await verify('/file', file, 'application/octet-stream'),
          await verify('', { sha256: statement.sha256!.toUpperCase() }),
        ]) {
          expect(answer.statusCode, answer.body).toBe(200)
          expect(answer.json()).toEqual(expected)
        }
        // One byte changed is another file.
        const changed = Buffer.from(file)
        changed.writeUInt8(changed.readUInt8(changed.length - 10) ^ 1, changed.length - 10)
        expectProblem(await verify('/file', changed, 'application/pdf'), 404, 'STATEMENT_NOT_FOUND')
        expectProblem(await verify('/ZZZZZZZZZZZZ'), 404, 'STATEMENT_NOT_FOUND')
        expectProblem(await verify('', { sha256: 'nope' }), 422, 'VALIDATION_FAILED')
      })

      it('a download link works without a sign-in for ten minutes, then is gone', async () => {
        const { token, account } = await spender()
        const queued = ok<Statement>(
          await ask(token, { scope: { fiat_account_id: account.id }, ...around(), format: 'csv' }),
          202,
        )
        const link = (id: string) =>
          app.inject({
            method: 'POST',
            url: `/api/v2/statements/${id}/link`,
            headers: headers(bearer(token)),
          })
        expectProblem(await link(queued.id), 409, 'STATEMENT_NOT_READY')
        await runJobs()
        const made = ok<StatementLink>(await link(queued.id), 201)
        const path = new URL(made.url).pathname
        expect(path).toMatch(/^\/api\/statements\/files\/[A-Za-z0-9_-]{43}$/)
        const file = await app.inject({ method: 'GET', url: path, remoteAddress: '203.0.113.9' })
        expect(file.statusCode).toBe(200)
        expect(file.headers['content-type']).toBe('text/csv; charset=utf-8')
        await app.db
          .updateTable('statements')
          .set({ link_expires_at: new Date(Date.now() - 1) })
          .where('id', '=', queued.id)
          .execute()
        expectProblem(
          await app.inject({ method: 'GET', url: path, remoteAddress: '203.0.113.9' }),
          404,
          'STATEMENT_NOT_FOUND',
        )
        const stranger = await person()
        expectProblem(
          await app.inject({
            method: 'POST',
            url: `/api/v2/statements/${queued.id}/link`,
            headers: headers(bearer(stranger.token)),
          }),
          404,
          'STATEMENT_NOT_FOUND',
        )
      })

      it('a statement not yet rendered is not there to verify', async () => {
        const { token, account } = await spender()
        const queued = ok<Statement>(
          await ask(token, { scope: { fiat_account_id: account.id }, ...around(), format: 'csv' }),
          202,
        )
        expectProblem(await verify(`/${queued.code}`), 404, 'STATEMENT_NOT_FOUND')
        await runJobs()
      })
    })
  },
)

describeServer('the verify route’s abuse limits', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const from = (address: string, code: string) =>
    app.inject({ method: 'GET', url: `/api/statements/verify/${code}`, remoteAddress: address })

  it(`an address gets ${VERIFY_CALLS.max} checks a minute, then 429 with Retry-After; another address is not held up`, async () => {
    for (let i = 0; i < VERIFY_CALLS.max; i++) {
      expect((await from('198.51.100.1', 'ABCDEFGHJKMN')).statusCode).toBe(404)
    }
    const held = expectProblem(await from('198.51.100.1', 'ABCDEFGHJKMN'), 429, 'RATE_LIMITED')
    expect(Number(held.retry_after)).toBeGreaterThan(0)
    expect((await from('198.51.100.2', 'ABCDEFGHJKMN')).statusCode).toBe(404)
  })

  it(`guessing stops after ${VERIFY_MISSES.max} misses an hour, even spread over minutes`, async () => {
    const address = '198.51.100.3'
    const hits = VERIFY_MISSES.max
    // Move past the per-minute window between batches by clearing it, as a patient guesser would wait.
    for (let i = 0; i < hits; i++) {
      if (i % (VERIFY_CALLS.max - 1) === 0) {
        await app.db
          .deleteFrom('rate_limit_hits')
          .where('key', '=', `statement-verify:${address}`)
          .execute()
      }
      expect((await from(address, `GUESS${String(i).padStart(7, '0')}`)).statusCode).toBe(404)
    }
    await app.db
      .deleteFrom('rate_limit_hits')
      .where('key', '=', `statement-verify:${address}`)
      .execute()
    expectProblem(await from(address, 'GUESS9999999'), 429, 'RATE_LIMITED')
  })

  it('past the misses a genuine code answers 429 too: a guesser learns nothing from a hit', async () => {
    const { person } = cardCalls(() => app)
    const { made } = statementCalls(() => app)
    const { token, wallet } = await person()
    const { statement } = await made(token, {
      scope: { wallet_uuid: wallet.uuid },
      ...around(),
      format: 'json',
    })
    const address = '198.51.100.4'
    // A match is given back: checking one's own statement never counts as guessing.
    for (let i = 0; i < VERIFY_MISSES.max + 1; i++) {
      if (i % (VERIFY_CALLS.max - 1) === 0) {
        await app.db
          .deleteFrom('rate_limit_hits')
          .where('key', '=', `statement-verify:${address}`)
          .execute()
      }
      expect((await from(address, statement.code)).statusCode).toBe(200)
    }
    for (let i = 0; i < VERIFY_MISSES.max; i++) {
      if (i % (VERIFY_CALLS.max - 1) === 0) {
        await app.db
          .deleteFrom('rate_limit_hits')
          .where('key', '=', `statement-verify:${address}`)
          .execute()
      }
      expect((await from(address, `MISS${String(i).padStart(8, '0')}`)).statusCode).toBe(404)
    }
    expectProblem(await from(address, statement.code), 429, 'RATE_LIMITED')
  })
})
