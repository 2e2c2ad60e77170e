import { Readable } from 'node:stream'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { Problem } from '../../../contract/problem.ts'
import { TransactionList, TransactionQuery, WalletTransaction } from '../../../contract/wallets.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { translateWalletError } from '../wallets/routes.ts'
import { TransactionError } from './errors.ts'
import { csvFilename } from './rules.ts'

/** The one switch from history failures to HTTP answers, for both bases. */
const toProblem = (error: unknown) => {
  // Another user's wallet answers exactly like one that does not exist.
  const walletProblem = translateWalletError(error)
  if (walletProblem) return walletProblem
  if (!(error instanceof TransactionError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'TRANSACTION_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such transaction in this wallet.')
    case 'INVALID_DATE_RANGE':
      return new ProblemError(422, 'VALIDATION_FAILED', '/querystring/from must not be after to', {
        title: 'Unprocessable Content',
        errors: [{ field: '/querystring/from', message: 'must not be after to' }],
      })
    default:
      return assertNever(failure)
  }
}

const WalletParams = Type.Object({ wallet_uuid: Type.String({ format: 'uuid' }) })
const TransactionParams = Type.Object({
  wallet_uuid: Type.String({ format: 'uuid' }),
  uuid: Type.String({ format: 'uuid' }),
})
/** The CSV takes the list's filters and always exports everything they match. */
const ExportQuery = Type.Omit(TransactionQuery, ['limit', 'offset', 'with_total'])
const problems = { 401: Problem, 404: Problem, 422: Problem, 423: Problem }

const FILTERS_DESCRIPTION =
  'Filters combine with AND: `type`, `method`, `status`, `record_type` (docs/product.md §3 enumerations), ' +
  '`currency` (a code in any letter case — every chain’s — or a currency uuid), ' +
  '`from` (inclusive) and `to` (exclusive), ISO 8601 date-times; `from` after `to` is 422.'

/** v2: a wallet's history, one page at a time, and one record, read from the replica. Protected. */
export default async function transactionRoutes(app: FastifyInstance) {
  const reads = app.services.reads.transactions
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/wallets/:wallet_uuid/transactions',
    {
      schema: {
        tags: ['transactions'],
        summary: 'A wallet’s transactions, newest first, filtered and paged',
        description: `${FILTERS_DESCRIPTION} Another user’s wallet answers 404 WALLET_NOT_FOUND.`,
        params: WalletParams,
        querystring: TransactionQuery,
        response: { 200: TransactionList, ...problems },
      },
    },
    (request) =>
      translateErrors(
        reads((service) =>
          service.listTransactions(request.auth, request.params.wallet_uuid, request.query),
        ),
        toProblem,
      ),
  )

  api.get(
    '/wallets/:wallet_uuid/transactions/:uuid',
    {
      schema: {
        tags: ['transactions'],
        summary: 'One transaction of a wallet',
        description:
          'A record of any other wallet answers 404 TRANSACTION_NOT_FOUND; ' +
          'a wallet of another user, 404 WALLET_NOT_FOUND.',
        params: TransactionParams,
        response: { 200: WalletTransaction, ...problems },
      },
    },
    (request) =>
      translateErrors(
        reads((service) =>
          service.getTransaction(request.auth, request.params.wallet_uuid, request.params.uuid),
        ),
        toProblem,
      ),
  )
}

/** v1: the whole history as RFC 4180 CSV, streamed from the replica. Protected (raw token). */
export async function transactionCsvRoutes(app: FastifyInstance) {
  const reads = app.services.reads.transactionExports
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/wallets/transactions/:wallet_uuid/csv',
    {
      schema: {
        tags: ['transactions'],
        summary: 'Export a wallet’s transactions as CSV, newest first',
        description:
          `${FILTERS_DESCRIPTION} No paging: every matching record, streamed. ` +
          'Columns: uuid, created_at, type, method, record_type, status, currency, chain, ' +
          'amount, address, tx_hash, confirmations; CRLF line ends.',
        params: WalletParams,
        querystring: ExportQuery,
        response: {
          // A string in the document; a stream to the handler's types.
          200: {
            description: 'RFC 4180 CSV with a header row',
            content: { 'text/csv': { schema: Type.Unsafe<Readable>({ type: 'string' }) } },
          },
          ...problems,
        },
      },
    },
    async (request, reply) => {
      const walletId = request.params.wallet_uuid
      const chunks = await translateErrors(
        reads((service) => service.exportCsv(request.auth, walletId, request.query)),
        toProblem,
      )
      // Pull-based: the generator is asked for the next page only when the
      // socket has drained what came before (one page buffered, no more).
      const body = Readable.from(chunks, { highWaterMark: 1 })
      body.once('error', (error) => request.log.error({ err: error }, 'CSV export failed midway'))
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${csvFilename(walletId, new Date())}"`,
        )
        .header('cache-control', 'no-store')
        .send(body)
    },
  )
}
