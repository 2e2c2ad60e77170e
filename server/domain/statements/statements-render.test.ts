import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Statement } from '../../../contract/statements.ts'
import { createTestApp, describeServer, expectProblem } from '../../test-support.ts'
import { ok, testCardKeys } from '../cards/card-test-support.ts'
import { bookedAt } from '../ledger/booking-time.ts'
import { CUR, fund } from '../orders/order-fixtures.ts'
import { pdfLines } from './pdf-lines-test-support.ts'
import { around, type JsonStatement, spenderOf } from './statement-fixtures.ts'
import { statementCalls } from './statement-test-support.ts'
import { groupedIban } from './wording.ts'

describeServer('a statement is asked for, rendered by a job and downloaded by its owner', () => {
  let app: FastifyInstance
  const keys = testCardKeys()
  beforeAll(async () => {
    app = await createTestApp(keys.env)
  })
  afterAll(() => app?.close())

  const { ask, get, made, sepaCredit } = statementCalls(() => app)
  const spender = spenderOf(() => app)

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

  it('in Arabic: Content-Language ar, the PDF read right to left, numbers and Latin names left to right', async () => {
    const { token, account } = await spender()
    const { statement, file, response } = await made(token, {
      scope: { fiat_account_id: account.id },
      ...around(),
      format: 'pdf',
      language: 'ar',
    })
    expect(statement.language).toBe('ar')
    expect(response.headers['content-language']).toBe('ar')
    const lines = pdfLines(file)
    // Each line as seen, left to right: Arabic words reversed, "Lukas Becker" and "+100.00 €" as written.
    const seen = (text: string) => expect(lines.join('\n')).toContain(text)
    seen('باسح فشك') // كشف حساب
    seen('+100.00\u00a0€Lukas Becker نم') // the amount column left of "من Lukas Becker", as the app shows it
    seen('ةقاطبلا رادصإ موسر') // رسوم إصدار البطاقة
    seen('Café Lisboa :دادرتسا') // استرداد: Café Lisboa
    seen(`IBAN: ${groupedIban(account.bank_details!.iban.replace(/ /g, ''))}`)
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
    expect(body.currencies.map((c) => [c.currency, c.opening_balance, c.closing_balance])).toEqual([
      ['EUR', '0.00', '250.00'],
    ])
    // A ledger entry no activity item stands for is worded by its kind.
    expect(body.currencies[0]!.movements[0]!.description).toBe('Other movement (test_credit)')
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
})
