import { get as httpGet, type IncomingMessage } from 'node:http'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { FastifyInstance } from 'fastify'
import type { KyselyPlugin } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import { createTestApp, describeServer, headers, walletWithRecords } from '../../test-support.ts'
import { at, csvUrl, parseCsv } from './csv-export-test-support.ts'
import { EXPORT_PAGE_SIZE, TransactionService } from './service.ts'
import { insertGeneratedTransactions, type TransactionOverrides } from './transaction-fixtures.ts'

describeServer('wallet transactions as CSV (v1): page by page, at the reader’s pace', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const walletWith = (records: TransactionOverrides[] = []) => walletWithRecords(app, records)

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
