import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import {
  CreatePaymentRequestBody,
  PaidRequest,
  PaymentRequest,
  PaymentRequestList,
  PaymentRequestListQuery,
  PaymentRequestView,
  PayRequestBody,
} from '../../../contract/payment-requests.ts'
import { Problem } from '../../../contract/problem.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { translateTransferError } from '../transfers/routes.ts'
import { PaymentRequestError } from './errors.ts'

/** Public views of payment requests per client address a minute: a payer opens one, not thousands. */
export const VIEWS_PER_IP_PER_MINUTE = 60

/** The one switch from payment request failures (and a payment's transfer failures) to HTTP. */
const toProblem = (error: unknown) => {
  const transferProblem = translateTransferError(error)
  if (transferProblem) return transferProblem
  if (!(error instanceof PaymentRequestError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'PAYMENT_REQUEST_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such payment request: ask for a new link.')
    case 'REQUEST_ALREADY_PAID':
      return new ProblemError(
        409,
        failure.kind,
        'Someone paid this request already; nothing moved.',
      )
    case 'REQUEST_NOT_PAYABLE':
      return new ProblemError(
        409,
        failure.kind,
        failure.status === 'CANCELED'
          ? 'The requester cancelled this request: ask them for a new one.'
          : 'This request expired: ask the requester for a new one.',
      )
    case 'PAYMENT_REQUEST_INVALID':
      return new ProblemError(422, 'VALIDATION_FAILED', `${failure.field} ${failure.message}`, {
        title: 'Unprocessable Content',
        errors: [{ field: failure.field, message: failure.message }],
      })
    default:
      return assertNever(failure)
  }
}

const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) })
const problems = { 401: Problem, 404: Problem, 422: Problem, 423: Problem }
const tags = ['payment-requests']

/**
 * Asking to be paid (issue 32). Anyone with the link may see a request —
 * who asks, how much, for what — with no sign-in; paying it is a transfer
 * (money out: the second look for a first payment to someone new above the
 * tenant's threshold, and refused in a lockdown — route-policy.ts).
 */
export default async function paymentRequestRoutes(app: FastifyInstance) {
  const service = app.services.paymentRequests
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/payment-requests',
    {
      schema: {
        tags,
        summary: 'Ask to be paid: a link, a Telegram link and a QR code to share',
        description:
          'The money lands in `wallet_uuid`, else the caller’s Personal wallet. `telegram_url` ' +
          'opens the Mini App (`startapp=pr_<id>`) when TELEGRAM_BOT_USERNAME and ' +
          'TELEGRAM_MINI_APP_NAME are set, else null. 422 VALIDATION_FAILED (an expiry in the ' +
          'past, an amount of too many decimals, an unknown currency).',
        body: CreatePaymentRequestBody,
        response: { 201: PaymentRequest, ...problems },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await translateErrors(service.create(request.auth, request.body), toProblem)),
  )

  api.get(
    '/payment-requests',
    {
      schema: {
        tags,
        summary: 'The caller’s payment requests, newest first',
        querystring: PaymentRequestListQuery,
        response: { 200: PaymentRequestList, ...problems },
      },
    },
    (request) => service.list(request.auth, request.query),
  )

  api.get(
    '/payment-requests/:id',
    {
      schema: {
        tags,
        summary: 'A payment request as anyone with its link sees it',
        description:
          'No sign-in: who asks (a display name and initial), how much, the note, and the ' +
          'status — OPEN, PAID, CANCELED or EXPIRED.',
        params: IdParams,
        response: { 200: PaymentRequestView, 404: Problem },
      },
    },
    (request) => translateErrors(service.view(request.tenantId, request.params.id), toProblem),
  )

  api.post(
    '/payment-requests/:id/pay',
    {
      schema: {
        tags,
        summary: 'Pay a request in one tap: a transfer to the requester',
        description:
          'Once: a second payer gets 409 REQUEST_ALREADY_PAID and pays nothing, also when two ' +
          'pay at the same moment; 409 REQUEST_NOT_PAYABLE when cancelled or expired. The ' +
          '`request_id` makes it idempotent like POST /transfers; the same failures otherwise.',
        params: IdParams,
        body: PayRequestBody,
        response: { 201: PaidRequest, 403: Problem, 409: Problem, ...problems },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await translateErrors(
            service.pay(request.auth, request.params.id, request.body),
            toProblem,
          ),
        ),
  )

  api.delete(
    '/payment-requests/:id',
    {
      schema: {
        tags,
        summary: 'Take back an open request',
        description: '409 REQUEST_ALREADY_PAID once paid; 409 REQUEST_NOT_PAYABLE once expired.',
        params: IdParams,
        response: { 200: PaymentRequest, 409: Problem, ...problems },
      },
    },
    (request) => translateErrors(service.cancel(request.auth, request.params.id), toProblem),
  )
}
