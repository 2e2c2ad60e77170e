import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import {
  BalanceHistory,
  BalanceHistoryQuery,
  SpendingInsights,
  SpendingQuery,
} from '../../../contract/insights.ts'
import { Problem } from '../../../contract/problem.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { InsightError } from './errors.ts'

/** The one switch from insight failures to HTTP answers. */
const toProblem = (error: unknown) => {
  if (!(error instanceof InsightError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    // Another person's wallet answers exactly like one that does not exist.
    case 'WALLET_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such wallet.')
    case 'INVALID_PERIOD':
      return new ProblemError(422, 'VALIDATION_FAILED', `${failure.field} ${failure.message}`, {
        title: 'Unprocessable Content',
        errors: [{ field: failure.field, message: failure.message }],
      })
    case 'RATES_UNAVAILABLE':
      return new ProblemError(502, failure.kind, 'Exchange rates are unavailable.')
    default:
      return assertNever(failure)
  }
}

const problems = { 401: Problem, 404: Problem, 422: Problem, 423: Problem, 502: Problem }

/** v2: spending and income, and a wallet's balance over time. Protected; the person's own. */
export default async function insightRoutes(app: FastifyInstance) {
  const service = app.services.insights
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/insights/spending',
    {
      schema: {
        tags: ['insights'],
        summary: 'Spending and income by category, merchant or month, in a display currency',
        description:
          'From the activity feed, `from` inclusive to `to` exclusive (at most 366 days). ' +
          'Spending: card payments (refunds taken off), money sent, card fees; income: deposits ' +
          'and money received; exchanges, transfers between own wallets and top-ups are neither. ' +
          '`group=category` (card payments by merchant category group, ' +
          'contract/merchant-categories.ts; `transfers`, `fees`), `merchant` (the merchant or ' +
          'payee), `month` (in `time_zone`, with income). Each group carries its spending in the ' +
          'period before and the change in percent. Amounts in `currency` (EUR by default): a ' +
          'movement whose other side was that currency at the rate recorded with it, anything ' +
          'else at today’s rate (`rate_basis`, `rates_as_of`: the sandbox provider keeps no ' +
          'history). No rates: 502 RATES_UNAVAILABLE.',
        querystring: SpendingQuery,
        response: { 200: SpendingInsights, ...problems },
      },
    },
    (request) => translateErrors(service.spending(request.auth, request.query), toProblem),
  )

  api.get(
    '/insights/balance-history',
    {
      schema: {
        tags: ['insights'],
        summary: 'A wallet’s balance at the end of each day or week, from the ledger',
        description:
          'Per currency, the wallet’s balance (available plus held for an order) at the end of ' +
          'each day or week (from Monday) in `time_zone` between `from` and `to` (at most 366 ' +
          'days), summed from its ledger accounts’ postings. With `currency`, `total` adds the ' +
          'lines up at today’s rates. Another person’s wallet: 404 WALLET_NOT_FOUND.',
        querystring: BalanceHistoryQuery,
        response: { 200: BalanceHistory, ...problems },
      },
    },
    (request) => translateErrors(service.balanceHistory(request.auth, request.query), toProblem),
  )
}
