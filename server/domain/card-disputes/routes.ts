import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import {
  CardDispute,
  CardDisputeList,
  CardDisputeQuery,
  CreateDisputeBody,
  DisputeDecisionBody,
} from '../../../contract/card-disputes.ts'
import { Problem } from '../../../contract/problem.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { belongsTo } from '../tenants/product-gate.ts'
import { DisputeError } from './errors.ts'

/** The one switch from dispute failures to HTTP answers. */
export const toProblem = (error: unknown) => {
  if (!(error instanceof DisputeError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'TRANSACTION_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such card payment of yours.')
    case 'DISPUTE_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such dispute.')
    case 'AUTHORIZATION_NOT_SETTLED':
      return new ProblemError(
        409,
        failure.kind,
        `The payment is ${failure.status}: only a settled payment can be disputed.`,
      )
    case 'DISPUTE_EXISTS':
      return new ProblemError(
        409,
        failure.kind,
        'This payment was disputed already: GET /api/v1/issuing/disputes shows where it stands.',
      )
    case 'FIAT_ACCOUNT_CLOSED':
      return new ProblemError(
        409,
        'FIAT_ACCOUNT_NOT_ACTIVE',
        'The card’s account was closed with it: nothing could be credited to it.',
      )
    case 'AMOUNT_EXCEEDS_DISPUTABLE': {
      const message = `At most ${failure.disputable} can be disputed: what was charged less what came back.`
      return new ProblemError(422, failure.kind, message, {
        title: 'Unprocessable Content',
        errors: [{ field: '/body/amount', message }],
      })
    }
    case 'INVALID_AMOUNT':
      return new ProblemError(422, failure.kind, failure.message, {
        title: 'Unprocessable Content',
        errors: [{ field: '/body/amount', message: failure.message }],
      })
    case 'DISPUTE_DECIDED':
      return new ProblemError(
        409,
        failure.kind,
        `The dispute is ${failure.status}: that decision does not follow.`,
      )
    case 'INSUFFICIENT_FUNDS':
      return new ProblemError(
        409,
        failure.kind,
        'The provisional credit was spent: it cannot be taken back until the account holds it.',
      )
    default:
      return assertNever(failure)
  }
}

const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) })
const problems = { 401: Problem, 404: Problem, 409: Problem, 422: Problem }

/** v1: a person disputes a card payment and follows the dispute (issue 30). */
export default async function cardDisputeRoutes(app: FastifyInstance) {
  belongsTo(app, 'cards')
  const { disputes } = app.services
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const tags = ['issuing']

  api.post(
    '/issuing/transactions/:id/dispute',
    {
      schema: {
        tags,
        summary: 'Dispute a settled card payment',
        description:
          '`{id}`: the payment’s authorisation or its clearing, SETTLED (else 409 ' +
          'AUTHORIZATION_NOT_SETTLED). `amount` at most what was charged less what was refunded ' +
          '(that whole rest when left out; 422 AMOUNT_EXCEEDS_DISPUTABLE). One dispute per ' +
          'payment: the same claim again answers it, 200 with `Idempotent-Replayed: true`; ' +
          'another claim is 409 DISPUTE_EXISTS. A `fraud` claim is credited to the card’s ' +
          'account at once, provisionally (taken back if lost). Status SUBMITTED → UNDER_REVIEW ' +
          '→ WON | LOST, each step a `card.dispute.updated` event.',
        params: IdParams,
        body: CreateDisputeBody,
        response: { 200: CardDispute, 201: CardDispute, ...problems },
      },
    },
    async (request, reply) => {
      const { dispute, replayed } = await translateErrors(
        disputes.create(request.auth, request.params.id, request.body),
        toProblem,
      )
      if (replayed) return reply.code(200).header('idempotent-replayed', 'true').send(dispute)
      return reply.code(201).send(dispute)
    },
  )

  api.get(
    '/issuing/disputes',
    {
      schema: {
        tags,
        summary: 'The caller’s disputes, newest first',
        querystring: CardDisputeQuery,
        response: { 200: CardDisputeList, 401: Problem },
      },
    },
    (request) => disputes.list(request.auth, request.query),
  )

  api.get(
    '/issuing/disputes/:id',
    {
      schema: {
        tags,
        summary: 'One dispute and where it stands',
        params: IdParams,
        response: { 200: CardDispute, 401: Problem, 404: Problem },
      },
    },
    (request) => translateErrors(disputes.get(request.auth, request.params.id), toProblem),
  )
}

/** /api/sandbox/card-disputes: the sandbox card network decides. Sandbox only, no token. */
export async function sandboxCardDisputeRoutes(app: FastifyInstance) {
  const { disputes } = app.services
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  api.post(
    '/card-disputes/:id/decision',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Simulate the card network deciding a dispute',
        description:
          '`under_review` takes a SUBMITTED dispute up; `won` or `lost` decides an open one. ' +
          'Won: a provisional credit stays for good, a claim not yet credited is credited. ' +
          'Lost: a credit is taken back (409 INSUFFICIENT_FUNDS, nothing changed, while the ' +
          'account no longer holds it). Anything else is 409 DISPUTE_DECIDED.',
        params: IdParams,
        body: DisputeDecisionBody,
        response: { 200: CardDispute, 404: Problem, 409: Problem },
      },
    },
    (request) =>
      translateErrors(disputes.decide(request.params.id, request.body.outcome), toProblem),
  )
}
