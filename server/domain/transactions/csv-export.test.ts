import { get as httpGet, type IncomingMessage } from 'node:http'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { FastifyInstance } from 'fastify'
import type { KyselyPlugin } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
import { CSV_COLUMNS } from './rules.ts'
import { EXPORT_PAGE_SIZE, TransactionService } from './service.ts'
import {
  CURRENCY,
  insertGeneratedTransactions,
  type TransactionOverrides,
} from './transaction-fixtures.ts'

/** RFC 4180, strictly: every record ends with CRLF; a field is bare or quoted with "" inside. */
function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let i = 0
  while (i < text.length) {
    let field = ''
    if (text[i] === '"') {
      i++
      for (;;) {
        const quote = text.indexOf('"', i)
        if (quote < 0) throw new Error('unterminated quoted field')
        field += text.slice(i, quote)
        i = quote + 1
        if (text[i] !== '"') break
        field += '"'
        i++
      }
    } else {
      const end = text.slice(i).search(/,|\r\n/)
      if (end < 0) throw new Error('a record without CRLF')
      field = text.slice(i, i + end)
      if (/["\r\n]/.test(field)) throw new Error(`unquoted field ${JSON.stringify(field)}`)
      i += end
    }
    record.push(field)
    if (text[i] === ',') i++
    else if (text.startsWith('\r\n', i)) {
      records.push(record)
      record = []
      i += 2
    } else throw new Error(`junk after field at ${i}`)
  }
  return records
}

describeServer('wallet transactions as CSV (v1)', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const csvUrl = (walletId: string, query = '') =>
    `/api/v1/wallets/transactions/${walletId}/csv${query}`
  /** v1 takes the raw access token. */
  const exportCsv = (pair: TokenPair, walletId: string, query = '') =>
    app.inject({
      method: 'GET',
      url: csvUrl(walletId, query),
      headers: headers({ authorization: pair.access_token }),
    })

  const walletWith = (records: TransactionOverrides[] = []) => walletWithRecords(app, records)

  const at = (minute: number) => new Date(Date.UTC(2025, 2, 1, 12, minute))

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

  it('keyset pages neither skip nor repeat records that share an instant, to the microsecond', async () => {
    // Six records within one millisecond (a JS Date cannot tell them apart)
    // and three sharing one microsecond, read three at a time.
    const { scope, ids } = await walletWith([
      ...[1, 2, 3, 4, 5, 6].map((us) => ({ created_at: `2025-03-01 12:00:00.00${us}+00` })),
      ...[1, 2, 3].map(() => ({ created_at: '2025-03-01 11:00:00.000007+00' })),
      { created_at: '2025-03-01 10:00:00+00' },
    ])
    const expected = [...ids.slice(0, 6).reverse(), ...ids.slice(6, 9).sort().reverse(), ids[9]]
    for (const size of [1, 2, 3, 4]) {
      const chunks = await new TransactionService(app.db, { exportPageSize: size }).exportCsv(
        { tenantId: scope.tenantId, userId: await ownerOf(scope.walletId) },
        scope.walletId,
        {},
      )
      let text = ''
      for await (const chunk of chunks) text += chunk
      expect(
        parseCsv(text)
          .slice(1)
          .map((row) => row[0]),
        `page size ${size}`,
      ).toEqual(expected)
    }
  })

  it('reads a page only when the reader asks for more', async () => {
    const { scope } = await walletWith(
      Array.from({ length: 10 }, (_, minute) => ({ created_at: at(minute) })),
    )
    let queries = 0
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        queries++
        return args.node
      },
      transformResult: async (args) => args.result,
    }
    const owner = { tenantId: scope.tenantId, userId: await ownerOf(scope.walletId) }
    const chunks = await new TransactionService(app.db.withPlugin(counting), {
      exportPageSize: 4,
    }).exportCsv(owner, scope.walletId, {})
    const afterOwnership = queries
    expect((await chunks.next()).value).toMatch(/^uuid,/)
    expect(queries - afterOwnership).toBe(0)
    await chunks.next()
    expect(queries - afterOwnership).toBe(1)
    await chunks.next()
    expect(queries - afterOwnership).toBe(2)
    // A reader that goes away ends the export: no further page is read.
    await chunks.return(undefined)
    expect(queries - afterOwnership).toBe(2)
  })

  async function ownerOf(walletId: string) {
    const row = await app.db
      .selectFrom('wallets')
      .select('user_id')
      .where('id', '=', walletId)
      .executeTakeFirstOrThrow()
    return row.user_id
  }

  describe('20 000 records over a real socket', () => {
    const total = 20_000
    let url: string
    let pair: TokenPair
    beforeAll(async () => {
      const made = await walletWith()
      pair = made.pair
      await insertGeneratedTransactions(app.db, made.scope, total)
      url = `${await app.listen({ port: 0, host: '127.0.0.1' })}${csvUrl(made.wallet.uuid)}`
    })

    /** Rows the server has read from the database for CSV exports so far (its metric). */
    async function rowsRead() {
      const metric = app.metrics.registry.getSingleMetric('wallet_transactions_csv_rows_total')
      return (await metric?.get())?.values[0]?.value ?? 0
    }

    /** GET the export; `onData` sees each chunk as it arrives and may pause or end the response. */
    function download(onData: (chunk: string, response: IncomingMessage) => void) {
      return new Promise<void>((resolve, reject) => {
        const request = httpGet(
          url,
          { headers: headers({ authorization: pair.access_token }) },
          (response) => {
            if (response.statusCode !== 200) reject(new Error(`status ${response.statusCode}`))
            response.setEncoding('utf8')
            response.on('data', (chunk: string) => onData(chunk, response))
            response.on('end', resolve)
            response.on('close', resolve)
            response.on('error', reject)
          },
        )
        request.on('error', reject)
      })
    }

    it('arrive whole over a socket: every row once, newest first, in many chunks', async () => {
      const before = await rowsRead()
      let rest = ''
      let lines = 0
      let chunks = 0
      let bytes = 0
      let previous: string | undefined
      let disorder: string | undefined
      const started = performance.now()
      await download((chunk) => {
        chunks++
        bytes += Buffer.byteLength(chunk)
        const parts = (rest + chunk).split('\r\n')
        rest = parts.pop()!
        for (const line of parts) {
          lines++
          if (lines === 1) continue
          // Strictly descending (created_at, uuid): no record twice, none out of
          // order, none lost where ties on created_at cross a page boundary.
          const [uuid, createdAt] = line.split(',', 2)
          const key = `${createdAt}|${uuid}`
          if (previous !== undefined && !(key < previous)) disorder ??= `${key} after ${previous}`
          previous = key
        }
      })
      const seconds = (performance.now() - started) / 1000

      expect(disorder).toBeUndefined()
      expect(rest, 'the file ends with CRLF').toBe('')
      expect(lines - 1).toBe(total)
      expect((await rowsRead()) - before).toBe(total)
      expect(chunks).toBeGreaterThan(20)
      console.info(
        `CSV export: ${total} rows, ${(bytes / 1e6).toFixed(1)} MB in ${chunks} chunks, ` +
          `${seconds.toFixed(2)} s (${Math.round(total / seconds)} rows/s)`,
      )
    })

    it('a reader that stops holds the server back: it reads no further than a few pages', async () => {
      // No socket here: the kernel's buffers would swallow megabytes. inject's
      // stream says "full" at 16 KB and "drain" only when read, like a slow client.
      setFlagsFromString('--expose-gc')
      const gc = runInNewContext('gc') as () => void
      gc()
      const heapBefore = process.memoryUsage().heapUsed
      const before = await rowsRead()
      const response = await app.inject({
        method: 'GET',
        url: new URL(url).pathname,
        headers: headers({ authorization: pair.access_token }),
        payloadAsStream: true,
      })
      expect(response.statusCode).toBe(200)
      const body = response.stream()
      const reader = body[Symbol.asyncIterator]()
      const first = await reader.next()
      expect(String(first.value)).toMatch(/^uuid,/)

      await new Promise((resolve) => setTimeout(resolve, 300))
      const readWhileStopped = (await rowsRead()) - before
      gc()
      const heapWhileStopped = process.memoryUsage().heapUsed - heapBefore
      console.info(
        `CSV export with a stopped reader: ${readWhileStopped} of ${total} rows read, ` +
          `heap +${(heapWhileStopped / 1e6).toFixed(1)} MB (the file is about 4.7 MB)`,
      )
      expect(readWhileStopped).toBeLessThanOrEqual(5 * EXPORT_PAGE_SIZE)

      let bytes = Buffer.byteLength(String(first.value))
      let crlfs = String(first.value).split('\r\n').length - 1
      for (let next = await reader.next(); !next.done; next = await reader.next()) {
        // No record of ours holds CRLF, so counting them counts records.
        bytes += Buffer.byteLength(String(next.value))
        crlfs += String(next.value).split('\r\n').length - 1
      }
      expect(crlfs).toBe(total + 1)
      expect((await rowsRead()) - before).toBe(total)
      // Measured: about 1 MB while stopped; buffering the export would hold the whole file.
      expect(heapWhileStopped).toBeLessThan(bytes * 0.75)
    })
  })
})
