import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { oneOf } from '../../../contract/enums.ts'
import {
  ORDER_TYPES,
  Order,
  OrderList,
  OrderQuery,
  PlaceOrderBody,
} from '../../../contract/orders.ts'
import { Problem } from '../../../contract/problem.ts'
import type { ProblemCode } from '../../../contract/problem-codes.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { productOfOrderType } from '../tenants/product-gate.ts'
import { OrderError } from './errors.ts'

const unprocessable = (code: ProblemCode, detail: string, field: string) =>
  new ProblemError(422, code, detail, {
    title: 'Unprocessable Content',
    errors: [{ field, message: detail }],
  })

/** The one switch from order failures to HTTP answers (the sandbox bank's included). */
export const toProblem = (error: unknown) => {
  if (!(error instanceof OrderError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'QUOTE_NOT_FOUND':
      return unprocessable(
        'QUOTE_NOT_FOUND',
        'No such quote: get one from /orders/calc.',
        '/body/quote_id',
      )
    case 'QUOTE_MISMATCH':
      return unprocessable(
        'QUOTE_MISMATCH',
        `This quote is for ${failure.quoteType}, not ${failure.pathType}.`,
        '/body/quote_id',
      )
    case 'QUOTE_EXPIRED':
      return unprocessable(
        'QUOTE_EXPIRED',
        `The quote expired at ${failure.expiredAt.toISOString()}: get a new one.`,
        '/body/quote_id',
      )
    case 'QUOTE_USED':
      return new ProblemError(409, 'QUOTE_USED', 'Another order was placed with this quote.')
    case 'DESTINATION_GONE':
      return unprocessable(
        'DESTINATION_NOT_FOUND',
        'The destination of this quote was deleted: choose another one.',
        '/body/quote_id',
      )
    case 'DESTINATION_CHANGED':
      return unprocessable(
        'DESTINATION_CHANGED',
        'The destination of this quote was edited since it was priced: get a new quote.',
        '/body/quote_id',
      )
    case 'IDEMPOTENCY_CONFLICT':
      return new ProblemError(
        409,
        'IDEMPOTENCY_CONFLICT',
        'This idempotency key was used for a different order request.',
      )
    case 'INSUFFICIENT_FUNDS':
      return unprocessable(
        'INSUFFICIENT_FUNDS',
        `Not enough ${failure.currency}: the order needs ${failure.needed} ${failure.currency}, ` +
          `the wallet has ${failure.available} ${failure.currency} available.`,
        '/body/quote_id',
      )
    case 'FIAT_ACCOUNT_UNAVAILABLE':
      return unprocessable(
        'FIAT_ACCOUNT_UNAVAILABLE',
        `The fiat account of this quote is ${failure.status ?? 'gone'}: it takes no top-ups.`,
        '/body/quote_id',
      )
    case 'ORDER_NOT_FOUND':
      return new ProblemError(404, 'ORDER_NOT_FOUND', 'No such order.')
    case 'ORDER_NOT_CANCELABLE':
      return new ProblemError(
        409,
        'ORDER_NOT_CANCELABLE',
        `The order is ${failure.status} and can no longer be canceled.`,
        { extensions: { order_status: failure.status } },
      )
    case 'REFERENCE_UNKNOWN':
      return unprocessable(
        'REFERENCE_UNKNOWN',
        'No deposit order awaits a transfer with this reference.',
        '/body/reference',
      )
    case 'AMOUNT_MISMATCH':
      return unprocessable(
        'AMOUNT_MISMATCH',
        `The deposit instructions ask for ${failure.field} ${failure.expected}.`,
        `/body/${failure.field}`,
      )
    case 'TRANSFER_ALREADY_RECEIVED':
      return new ProblemError(
        409,
        'TRANSFER_ALREADY_RECEIVED',
        'The transfer for this reference has been received already.',
      )
    case 'ORDER_NOT_AWAITING_TRANSFER':
      return new ProblemError(
        409,
        'ORDER_NOT_AWAITING_TRANSFER',
        `The deposit order is ${failure.status}: it awaits no transfer.`,
        { extensions: { order_status: failure.status } },
      )
    default:
      return assertNever(failure)
  }
}

const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) })
const problems = { 401: Problem, 422: Problem, 423: Problem }

/** v1 (raw token): placing, reading and cancelling orders; registers the job that carries them. */
export default async function orderRoutes(app: FastifyInstance) {
  const service = app.services.orders
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/orders/:order_type',
    {
      config: { product: productOfOrderType },
      schema: {
        tags: ['orders'],
        summary: 'Place an order from a firm quote',
        description:
          'Places the quote from `GET /orders/calc` as an order: its `total` is held in the ' +
          'wallet at once (deposits hold nothing: they answer PENDING with deposit_instructions). ' +
          'Idempotent: the key is `request_id`, else the Idempotency-Key header, else the quote. ' +
          'The same key with the same request answers the first 201 again, with ' +
          '`Idempotent-Replayed: true`; with a different request, 409 IDEMPOTENCY_CONFLICT. ' +
          '422 QUOTE_NOT_FOUND, QUOTE_MISMATCH (another order type), QUOTE_EXPIRED, ' +
          'INSUFFICIENT_FUNDS, DESTINATION_NOT_FOUND (deleted since the quote), ' +
          'DESTINATION_CHANGED (edited since the quote: quote again); ' +
          '409 QUOTE_USED (placed by another order).',
        params: Type.Object({ order_type: oneOf(ORDER_TYPES) }),
        headers: Type.Object({
          'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        }),
        body: PlaceOrderBody,
        response: { 201: Order, 409: Problem, ...problems },
      },
    },
    async (request, reply) => {
      const { order, replayed } = await translateErrors(
        service.place(request.auth, {
          orderType: request.params.order_type,
          quoteId: request.body.quote_id,
          requestId: request.body.request_id,
          idempotencyHeader: request.headers['idempotency-key'],
          note: request.body.note,
        }),
        toProblem,
      )
      if (replayed) reply.header('idempotent-replayed', 'true')
      return reply.code(201).send(order)
    },
  )

  api.get(
    '/orders',
    {
      schema: {
        tags: ['orders'],
        summary: 'The caller’s orders, newest first',
        description:
          'Filters: `wallet_uuid`, `order_type`, `status`. Each order carries its timeline.',
        querystring: OrderQuery,
        response: { 200: OrderList, ...problems },
      },
    },
    (request) => service.list(request.auth, request.query),
  )

  api.get(
    '/orders/:id',
    {
      schema: {
        tags: ['orders'],
        summary: 'One order with its timeline',
        description: 'Another person’s order answers 404 ORDER_NOT_FOUND, like a missing one.',
        params: IdParams,
        response: { 200: Order, 404: Problem, ...problems },
      },
    },
    (request) => translateErrors(service.get(request.auth, request.params.id), toProblem),
  )

  api.post(
    '/orders/:id/cancel',
    {
      schema: {
        tags: ['orders'],
        summary: 'Cancel an order the rail does not have yet',
        description:
          'Allowed while the order is NEW and not yet handed to its bank or chain, and for a ' +
          'deposit still awaiting its transfer; the held funds come back at once. Otherwise ' +
          '409 ORDER_NOT_CANCELABLE with the order’s `order_status`.',
        params: IdParams,
        response: { 200: Order, 404: Problem, 409: Problem, ...problems },
      },
    },
    (request) => translateErrors(service.cancel(request.auth, request.params.id), toProblem),
  )
}
