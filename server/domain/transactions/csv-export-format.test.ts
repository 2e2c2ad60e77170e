import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { TransactionList } from '../../../contract/wallets.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  walletWithRecords,
} from '../../test-support.ts'
import { at, csvUrl, parseCsv } from './csv-export-test-support.ts'
import { CSV_COLUMNS } from './rules.ts'
import { CURRENCY, type TransactionOverrides } from './transaction-fixtures.ts'

describeServer('wallet transactions as CSV (v1): the file and who may have it', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  /** v1 takes the raw access token. */
  const exportCsv = (pair: TokenPair, walletId: string, query = '') =>
    app.inject({
      method: 'GET',
      url: csvUrl(walletId, query),
      headers: headers({ authorization: pair.access_token }),
    })

  const walletWith = (records: TransactionOverrides[] = []) => walletWithRecords(app, records)

  it('answers a CSV attachment: header row, one CRLF-ended row per record, newest first', async () => {
    const { pair, wallet, ids } = await walletWith([
      {
        currency_uuid: CURRENCY.EUR,
        amount_minor: '12345',
        method: 'bank_transfer',
        created_at: at(1),
      },
      {
        type: 'withdrawal',
        record_type: 'WITHDRAWAL_CRYPTO_EXTERNAL',
        status: 'pending',
        currency_uuid: CURRENCY.ETH,
        amount_minor: '1',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        tx_hash: '0xfeed',
        confirmations: 0,
        created_at: at(2),
      },
    ])
    const response = await exportCsv(pair, wallet.uuid)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="transactions-${wallet.uuid}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    )
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.body).toBe(
      [
        'uuid,created_at,type,method,record_type,status,currency,chain,amount,address,tx_hash,confirmations,' +
          'activity_id,activity_type,counterparty_name,merchant,from_currency,to_currency,card_last4',
        // Records no activity item stands for leave the activity's columns empty.
        `${ids[1]},2025-03-01T12:02:00.000Z,withdrawal,crypto,WITHDRAWAL_CRYPTO_EXTERNAL,pending,ETH,ethereum,0.000000000000000001,0x52908400098527886E0F7030069857D2E4169EE7,0xfeed,0,,,,,,,`,
        `${ids[0]},2025-03-01T12:01:00.000Z,deposit,bank_transfer,DEPOSIT_CRYPTO_EXTERNAL,complete,EUR,,123.45,,,,,,,,,,`,
        '',
      ].join('\r\n'),
    )
  })

  it('an empty history is the header alone', async () => {
    const { pair, wallet } = await walletWith()
    const response = await exportCsv(pair, wallet.uuid)
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe(`${CSV_COLUMNS.join(',')}\r\n`)
  })

  it('quotes commas, quotes and line breaks, and defuses formulas', async () => {
    const addresses = [
      'Main St 1, Berlin',
      'the "cold" wallet',
      'two\nlines',
      'carriage\rreturn',
      'both\r\nends',
      '=HYPERLINK("http://evil.example","click")',
      '+1',
      '-1',
      '@SUM(A1:A2)',
      'plain',
    ]
    const { pair, wallet } = await walletWith(
      addresses.map((address, minute) => ({ address, created_at: at(minute) })),
    )
    const response = await exportCsv(pair, wallet.uuid)
    expect(response.body).toContain('"Main St 1, Berlin"')
    expect(response.body).toContain('"the ""cold"" wallet"')
    expect(response.body).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`)
    const [header, ...rows] = parseCsv(response.body)
    expect(header).toEqual([...CSV_COLUMNS])
    const column = CSV_COLUMNS.indexOf('address')
    expect(rows.map((row) => row[column]).reverse()).toEqual([
      ...addresses.slice(0, 5),
      `'=HYPERLINK("http://evil.example","click")`,
      "'+1",
      "'-1",
      "'@SUM(A1:A2)",
      'plain',
    ])
    for (const row of rows) expect(row).toHaveLength(CSV_COLUMNS.length)
  })

  it('takes the list’s filters and holds exactly what the list holds', async () => {
    const { pair, wallet } = await walletWith([
      { type: 'deposit', status: 'complete', currency_uuid: CURRENCY.USDT_TRON, created_at: at(1) },
      {
        type: 'deposit',
        status: 'pending',
        currency_uuid: CURRENCY.USDT_ETHEREUM,
        created_at: at(2),
      },
      {
        type: 'withdrawal',
        status: 'pending',
        currency_uuid: CURRENCY.USDT_TRON,
        created_at: at(3),
      },
      { type: 'deposit', status: 'pending', currency_uuid: CURRENCY.BTC, created_at: at(4) },
      {
        type: 'deposit',
        method: 'p2p',
        record_type: 'DEPOSIT',
        currency_uuid: CURRENCY.USDT_TRON,
        created_at: at(5),
      },
      { type: 'deposit', status: 'pending', currency_uuid: CURRENCY.USDT_TRON, created_at: at(9) },
    ])
    const to = encodeURIComponent(at(6).toISOString())
    const from = encodeURIComponent(at(1).toISOString())
    for (const query of [
      `?type=deposit&currency=usdt&to=${to}`,
      `?status=pending&from=${from}&to=${to}`,
      '?method=p2p',
      '?record_type=DEPOSIT_CRYPTO_EXTERNAL',
      `?currency=${CURRENCY.USDT_TRON}`,
    ]) {
      const csv = parseCsv((await exportCsv(pair, wallet.uuid, query)).body).slice(1)
      const list = await app.inject({
        method: 'GET',
        url: `/api/v2/wallets/${wallet.uuid}/transactions${query}&limit=100`.replace('?&', '?'),
        headers: headers(bearer(pair.access_token)),
      })
      const expected = list.json<TransactionList>().data.map((t) => t.uuid)
      expect(expected.length, query).toBeGreaterThan(0)
      expect(
        csv.map((row) => row[0]),
        query,
      ).toEqual(expected)
    }
    // Paging parameters mean nothing here: the export is everything.
    expect(parseCsv((await exportCsv(pair, wallet.uuid, '?limit=1')).body)).toHaveLength(7)
  })

  it('a bad filter or a backwards range answers 422 problem+json, not a CSV', async () => {
    const { pair, wallet } = await walletWith([{}])
    expectProblem(await exportCsv(pair, wallet.uuid, '?status=done'), 422, 'VALIDATION_FAILED')
    expectProblem(await exportCsv(pair, wallet.uuid, '?from=monday'), 422, 'VALIDATION_FAILED')
    const backwards = expectProblem(
      await exportCsv(pair, wallet.uuid, '?from=2025-03-02T00:00:00Z&to=2025-03-01T00:00:00Z'),
      422,
      'VALIDATION_FAILED',
    )
    expect(backwards.errors?.[0]?.field).toBe('/querystring/from')
  })

  it('v1 takes the raw token: a Bearer one, or none, answers 401', async () => {
    const { pair, wallet } = await walletWith([{}])
    for (const authorization of [`Bearer ${pair.access_token}`, undefined, 'garbage']) {
      const response = await app.inject({
        method: 'GET',
        url: csvUrl(wallet.uuid),
        headers: headers(authorization ? { authorization } : {}),
      })
      expectProblem(response, 401, 'UNAUTHORIZED')
    }
    const noTenant = await app.inject({
      method: 'GET',
      url: csvUrl(wallet.uuid),
      headers: { authorization: pair.access_token, 'x-app-env': 'web' },
    })
    expect(noTenant.statusCode).toBe(400)
  })

  it('another user’s wallet answers 404 WALLET_NOT_FOUND, never a CSV', async () => {
    const owner = await walletWith([{ address: 'secret' }])
    const stranger = await walletWith()
    const response = await exportCsv(stranger.pair, owner.wallet.uuid)
    expectProblem(response, 404, 'WALLET_NOT_FOUND')
    expect(response.body).not.toContain('secret')
    expectProblem(
      await exportCsv(owner.pair, '0190f5a4-0000-7000-8000-000000000000'),
      404,
      'WALLET_NOT_FOUND',
    )
  })

  it('the OpenAPI document shows the export as text/csv behind the raw token', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json()
    const operation = document.paths['/api/v1/wallets/transactions/{wallet_uuid}/csv'].get
    expect(operation.responses['200'].content).toHaveProperty('text/csv')
    expect(operation.security).toEqual([{ raw: [] }, { apiKey: [] }])
    expect(document.components.securitySchemes.raw).toMatchObject({ in: 'header' })
    expect(document.paths['/api/v2/wallets/{wallet_uuid}/transactions/{uuid}']).toHaveProperty(
      'get',
    )
  })
})
