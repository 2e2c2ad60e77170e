import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { Problem } from '../../../contract/problem.ts'
import {
  CreateTransferBody,
  PeopleLookupQuery,
  PersonLookup,
  RecentPeople,
  Transfer,
} from '../../../contract/transfers.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { translateWalletError } from '../wallets/routes.ts'
import { TransferError } from './errors.ts'

/** Lookups one person may make per minute, and one client address (route-limits.ts). */
export const LOOKUPS_PER_MINUTE = 20
export const LOOKUPS_PER_IP_PER_MINUTE = 60

const unprocessable = (
  code: 'VALIDATION_FAILED' | 'INSUFFICIENT_FUNDS',
  field: string,
  message: string,
) =>
  new ProblemError(422, code, `${field} ${message}`, {
    title: 'Unprocessable Content',
    errors: [{ field, message }],
  })

/** The one switch from transfer failures to HTTP answers. */
export const translateTransferError = (error: unknown) => {
  const walletProblem = translateWalletError(error)
  if (walletProblem) return walletProblem
  if (!(error instanceof TransferError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'RECIPIENT_NOT_FOUND':
      return new ProblemError(
        404,
        failure.kind,
        'Nobody you can pay by this id: pay them by e-mail, phone or Telegram username instead.',
      )
    case 'CANNOT_PAY_YOURSELF':
      return new ProblemError(
        422,
        failure.kind,
        'That is you. To move money between your own wallets, use an exchange or a transfer order.',
      )
    case 'TRANSFER_INVALID':
      return unprocessable('VALIDATION_FAILED', failure.field, failure.message)
    case 'CURRENCY_NOT_FOUND':
      return unprocessable(
        'VALIDATION_FAILED',
        '/body/currency_uuid',
        'is no currency of the catalogue',
      )
    case 'INSUFFICIENT_FUNDS':
      return unprocessable(
        'INSUFFICIENT_FUNDS',
        '/body/amount',
        `is more than the wallet has: ${failure.needed} ${failure.currency} needed, ` +
          `${failure.available} ${failure.currency} available`,
      )
    case 'IDEMPOTENCY_CONFLICT':
      return new ProblemError(
        409,
        failure.kind,
        'This request_id was used for a different transfer: send a new one for a new payment.',
      )
    case 'TRANSFER_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such transfer of yours.')
    case 'LOOKUP_INVALID':
      return unprocessable(
        'VALIDATION_FAILED',
        '/querystring',
        'must name exactly one of email, phone (with its country code) or telegram_username',
      )
    default:
      return assertNever(failure)
  }
}

const problems = { 401: Problem, 404: Problem, 422: Problem, 423: Problem }

/**
 * Paying people of the tenant (issue 32) and finding them. Money out: the
 * second look for a first payment to someone new above the tenant's
 * threshold, and refused in a lockdown (route-policy.ts names both).
 */
export default async function transferRoutes(app: FastifyInstance) {
  const service = app.services.transfers
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/transfers',
    {
      schema: {
        tags: ['transfers'],
        summary: 'Pay another person of the tenant',
        description:
          'Free and at once to a customer who lets people find them (`COMPLETE`); to any other ' +
          'contact the money waits 7 days for them to sign up with it (`AWAITING_CLAIM`, an ' +
          'invitation by e-mail or SMS), then comes back (`RETURNED`) — the answer is the same ' +
          'whether or not the contact has a hidden account. `to.user_id` names someone from ' +
          'GET /people/recent. The same `request_id` and body answer the first 201 again ' +
          '(`Idempotent-Replayed: true`); another body, 409 IDEMPOTENCY_CONFLICT. 422 ' +
          'INSUFFICIENT_FUNDS, CANNOT_PAY_YOURSELF, VALIDATION_FAILED; 404 RECIPIENT_NOT_FOUND; ' +
          '403 STEP_UP_REQUIRED for a first payment to someone new above the tenant’s threshold.',
        body: CreateTransferBody,
        response: { 201: Transfer, 403: Problem, 409: Problem, ...problems },
      },
    },
    async (request, reply) => {
      const { transfer, replayed } = await translateErrors(
        service.send(request.auth, request.body),
        translateTransferError,
      )
      if (replayed) reply.header('idempotent-replayed', 'true')
      return reply.code(201).send(transfer)
    },
  )

  api.get(
    '/transfers/:id',
    {
      schema: {
        tags: ['transfers'],
        summary: 'One transfer the caller sent or received',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: { 200: Transfer, ...problems },
      },
    },
    (request) =>
      translateErrors(service.get(request.auth, request.params.id), translateTransferError),
  )

  api.get(
    '/people/lookup',
    {
      schema: {
        tags: ['transfers'],
        summary: 'Whether a contact belongs to someone who lets people find them',
        description:
          'Exactly one of `email`, `phone`, `telegram_username`. A person who lets people find ' +
          'them (a profile setting, on for Telegram sign-ups) answers their display name and ' +
          'initial; a contact nobody has and one whose owner hides answer the same ' +
          '`found: false`. 429 past ' +
          `${LOOKUPS_PER_MINUTE} a minute per person or ${LOOKUPS_PER_IP_PER_MINUTE} per address.`,
        querystring: PeopleLookupQuery,
        response: { 200: PersonLookup, 429: Problem, ...problems },
      },
    },
    (request) =>
      translateErrors(service.lookup(request.auth, request.query), translateTransferError),
  )

  api.get(
    '/people/recent',
    {
      schema: {
        tags: ['transfers'],
        summary: 'The people the caller paid or was paid by, the latest first',
        response: { 200: RecentPeople, ...problems },
      },
    },
    (request) => service.recent(request.auth),
  )
}
