import { Readable } from 'node:stream'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import {
  CardTransaction,
  CardTransactionCsvQuery,
  CardTransactionList,
  CardTransactionQuery,
  ProcessorMessageBody,
} from '../../../contract/card-transactions.ts'
import { Problem } from '../../../contract/problem.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { belongsTo } from '../tenants/product-gate.ts'
import { CardTransactionError } from './errors.ts'
import { cardCsvFilename } from './rules.ts'

/** The one switch from card-transaction failures to HTTP answers. */
export const toProblem = (error: unknown) => {
  if (!(error instanceof CardTransactionError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'CARD_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such card.')
    case 'FIAT_ACCOUNT_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such fiat account.')
    case 'AUTHORIZATION_NOT_OPEN':
      return new ProblemError(
        409,
        failure.kind,
        `The authorisation is ${failure.status}: it was cleared, reversed or declined.`,
      )
    case 'IDEMPOTENCY_CONFLICT':
      return new ProblemError(
        409,
        failure.kind,
        'This network_message_id was used for another message of the card.',
      )
    case 'AUTHORIZATION_NOT_SETTLED':
      return new ProblemError(
        409,
        failure.kind,
        `The authorisation is ${failure.status}: only a cleared one can be refunded.`,
      )
    case 'UNKNOWN_CARD':
    case 'CURRENCY_MISMATCH':
    case 'INVALID_AMOUNT':
    case 'MERCHANT_REQUIRED':
    case 'AUTHORIZATION_REQUIRED':
    case 'AUTHORIZATION_NOT_FOUND':
    case 'AMOUNT_EXCEEDS_AUTHORIZATION':
    case 'AMOUNT_NOT_AUTHORIZED':
    case 'AMOUNT_EXCEEDS_REFUNDABLE':
    case 'THREE_DS_NOT_APPLICABLE':
    case 'CHANNEL_NOT_APPLICABLE':
      return new ProblemError(422, failure.kind, failure.message, {
        title: 'Unprocessable Content',
        errors: [{ field: failure.field, message: failure.message }],
      })
    default:
      return assertNever(failure)
  }
}

const problems = { 401: Problem, 404: Problem, 422: Problem, 423: Problem }

/** v1 (raw token): the caller's card transactions, paged and as CSV, from the replica. */
export default async function cardTransactionRoutes(app: FastifyInstance) {
  belongsTo(app, 'cards')
  const reads = app.services.reads.cardTransactions
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  const list = {
    schema: {
      tags: ['issuing'],
      summary: 'The caller’s card transactions, newest first',
      description:
        'Narrowed by `card_id` and/or `fiat_account_id`; another user’s card or account ' +
        'answers 404 CARD_NOT_FOUND / FIAT_ACCOUNT_NOT_FOUND. `new_scheme` is accepted and ' +
        'changes nothing. `authorization_id` ties a clearing, reversal or refund to its ' +
        'authorisation.',
      querystring: CardTransactionQuery,
      response: { 200: CardTransactionList, ...problems },
    },
  }
  // docs/product.md §7 names the path with its trailing slash: the same list, left out of the document.
  const alias = { ...list, schema: { ...list.schema, hide: true } }
  for (const [path, options] of [
    ['/issuing/transactions', list],
    ['/issuing/transactions/', alias],
  ] as const) {
    api.get(path, options, (request) => {
      const { limit, offset, with_total, card_id, fiat_account_id } = request.query
      return translateErrors(
        reads((service) =>
          service.list(request.auth, { card_id, fiat_account_id }, { limit, offset, with_total }),
        ),
        toProblem,
      )
    })
  }

  api.get(
    '/issuing/transactions/csv',
    {
      schema: {
        tags: ['issuing'],
        summary: 'Export a card’s transactions as CSV, newest first',
        description:
          'Every transaction of the card, streamed. Columns: id, created_at, card_last4, type, ' +
          'status, amount, currency, merchant_name, merchant_mcc, merchant_city, ' +
          'merchant_country, decline_reason, exceeded_limit, authorization_id; CRLF line ends; ' +
          'a cell a spreadsheet would run as a formula starts with an apostrophe.',
        querystring: CardTransactionCsvQuery,
        response: {
          200: {
            description: 'RFC 4180 CSV with a header row',
            content: { 'text/csv': { schema: Type.Unsafe<Readable>({ type: 'string' }) } },
          },
          ...problems,
        },
      },
    },
    async (request, reply) => {
      const cardId = request.query.card_id
      const chunks = await translateErrors(
        reads((service) => service.exportCsv(request.auth, cardId)),
        toProblem,
      )
      const body = Readable.from(chunks, { highWaterMark: 1 })
      body.once('error', (error) => request.log.error({ err: error }, 'CSV export failed midway'))
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${cardCsvFilename(cardId, new Date())}"`,
        )
        .header('cache-control', 'no-store')
        .send(body)
    },
  )
}

/** /api/sandbox/card-transactions: the sandbox card network. Sandbox only, no token. */
export async function sandboxCardTransactionRoutes(app: FastifyInstance) {
  const processor = app.services.cardNetwork
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/card-transactions',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Simulate the card network: authorise, clear, reverse or refund a card payment',
        description:
          'AUTHORIZATION is approved or declined (both answer 201 with the record): with ' +
          '`three_ds_code` (6 digits) it must be the card’s current one-time code of GET ' +
          '/vcards/cards/{id}/sensitive/otp, unexpired and unused — it is then spent — else ' +
          'THREE_DS_FAILED (also, unchecked, after 5 wrong codes within the hour); a card not ' +
          'ACTIVE declines CARD_FROZEN/CARD_BLOCKED/…, an account not ACTIVE ' +
          'ACCOUNT_UNAVAILABLE, then LIMIT_EXCEEDED (`exceeded_limit`: per_transaction, daily or ' +
          'monthly — sums of approved authorisations of the UTC day/month), then ' +
          'INSUFFICIENT_FUNDS. Approval holds the amount. CLEARING (≤ the authorised amount) ' +
          'settles the hold and releases the rest; REVERSAL (the authorised amount) releases it; ' +
          'REFUND (≤ cleared less refunded) credits the account. An authorisation already ' +
          'ended answers 409 AUTHORIZATION_NOT_OPEN, a refund of one not cleared 409 ' +
          'AUTHORIZATION_NOT_SETTLED; malformed messages 422 naming the field (a ' +
          '`three_ds_code` on another type: THREE_DS_NOT_APPLICABLE). With ' +
          '`network_message_id` (unique per card) the same message again answers its stored ' +
          'record, 200 with `Idempotent-Replayed: true`, and moves nothing; another message ' +
          'under that id is 409 IDEMPOTENCY_CONFLICT.',
        body: ProcessorMessageBody,
        response: { 200: CardTransaction, 201: CardTransaction, 409: Problem, 422: Problem },
      },
    },
    async (request, reply) => {
      const { transaction, replayed } = await translateErrors(
        processor.receive(request.body),
        toProblem,
      )
      if (replayed) return reply.code(200).header('idempotent-replayed', 'true').send(transaction)
      return reply.code(201).send(transaction)
    },
  )
}
