import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { ActivityDetail, ActivityPage, ActivityQuery } from '../../../contract/activity.ts'
import { Problem } from '../../../contract/problem.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { ActivityError } from './errors.ts'

/** The one switch from feed failures to HTTP answers. */
const toProblem = (error: unknown) => {
  if (!(error instanceof ActivityError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    // Another person's wallet, card, account or item answers exactly like one that does not exist.
    case 'ACTIVITY_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such activity.')
    case 'WALLET_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such wallet.')
    case 'CARD_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such card.')
    case 'FIAT_ACCOUNT_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such fiat account.')
    case 'INVALID_CURSOR':
      return new ProblemError(422, 'VALIDATION_FAILED', '/querystring/cursor is not a cursor', {
        title: 'Unprocessable Content',
        errors: [
          { field: '/querystring/cursor', message: 'must be a next_cursor this API answered' },
        ],
      })
    case 'EMPTY_RANGE': {
      const field = `/querystring/${failure.field}`
      const message = `must not be above ${failure.other}`
      return new ProblemError(422, 'VALIDATION_FAILED', `${field} ${message}`, {
        title: 'Unprocessable Content',
        errors: [{ field, message }],
      })
    }
    default:
      return assertNever(failure)
  }
}

const problems = { 401: Problem, 404: Problem, 422: Problem, 423: Problem }

/** v2: the person's activity feed and one item of it, read from the replica. Protected. */
export default async function activityRoutes(app: FastifyInstance) {
  // An item, wallet, card or account the replica does not hold yet: the primary is asked.
  const reads = app.services.reads.activity
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/activity',
    {
      schema: {
        tags: ['activity'],
        summary: 'The person’s activity across wallets, cards and accounts, newest first',
        description:
          'One item per business event (an exchange, a send, a deposit, a card payment, a ' +
          'top-up, a fee), by keyset: pass the answer’s `next_cursor` as `cursor` for the ' +
          'next page (null on the last). Pages never repeat or skip an item while new ones ' +
          'arrive; new items show on a read from the top. Narrow with `wallet_uuid`, ' +
          '`card_id`, `fiat_account_id` (another person’s: 404), `type`, `currency`, `q`, ' +
          '`status`, `from` (inclusive) and `to` (exclusive) date-times, `min` and `max` ' +
          '(inclusive) decimal bounds of the amount in its own currency; `from` after `to` or ' +
          '`min` above `max` is 422.',
        querystring: ActivityQuery,
        response: { 200: ActivityPage, ...problems },
      },
    },
    (request) =>
      translateErrors(
        reads((service) => service.page(request.auth, request.query)),
        toProblem,
      ),
  )

  api.get(
    '/activity/:id',
    {
      schema: {
        tags: ['activity'],
        summary: 'One activity item: what happened, its timeline, and the ledger records',
        description: 'Another person’s item answers 404 ACTIVITY_NOT_FOUND.',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: { 200: ActivityDetail, ...problems },
      },
    },
    (request) =>
      translateErrors(
        reads((service) => service.detail(request.auth, request.params.id)),
        toProblem,
      ),
  )
}
