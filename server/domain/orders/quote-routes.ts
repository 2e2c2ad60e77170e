import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import {
  ExchangeDirectionList,
  ExchangeQuery,
  Quote,
  QuoteQuery,
} from '../../../contract/orders.ts'
import { Problem } from '../../../contract/problem.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { RatesUnavailableError } from '../../providers/rates/rates.ts'
import { productOfOrderType } from '../tenants/product-gate.ts'
import { translateWalletError } from '../wallets/routes.ts'
import { QuoteError } from './errors.ts'

/** The one switch from pricing failures to HTTP answers. */
const toProblem = (error: unknown) => {
  // Another user's wallet, destination or account answers exactly like a missing one.
  const walletProblem = translateWalletError(error)
  if (walletProblem) return walletProblem
  if (error instanceof RatesUnavailableError) {
    return new ProblemError(502, 'RATES_UNAVAILABLE', 'Exchange rates are unavailable.')
  }
  if (!(error instanceof QuoteError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'DESTINATION_NOT_FOUND':
      return new ProblemError(
        404,
        failure.kind,
        'No such destination among this wallet’s counterparties.',
      )
    case 'FIAT_ACCOUNT_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such fiat account.')
    case 'VALIDATION_FAILED':
    case 'CURRENCY_NOT_FOUND':
    case 'CURRENCY_NOT_ALLOWED':
    case 'DIRECTION_NOT_OFFERED':
    case 'DESTINATION_TYPE_MISMATCH':
    case 'CHAIN_MISMATCH':
    case 'ADDRESS_INVALID':
    case 'TARGET_IS_SOURCE':
    case 'FIAT_ACCOUNT_TYPE_MISMATCH':
    case 'FIAT_ACCOUNT_NOT_ACTIVE':
    case 'AMOUNT_TOO_SMALL':
    case 'AMOUNT_TOO_LARGE':
      return new ProblemError(422, failure.kind, failure.message, {
        title: 'Unprocessable Content',
        errors: [
          { field: `/querystring/${failure.field}`, message: failure.reason ?? failure.message },
        ],
        ...(failure.limit && { extensions: { limit: failure.limit } }),
      })
    default:
      return assertNever(failure)
  }
}

const problems = { 401: Problem, 404: Problem, 422: Problem, 423: Problem, 502: Problem }

/** v1: firm quotes and the directions list. Protected (raw token). */
export default async function quoteRoutes(app: FastifyInstance) {
  const service = app.services.quotes
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/orders/calc',
    {
      config: { product: productOfOrderType },
      schema: {
        tags: ['orders'],
        summary: 'A firm quote for an order: amounts, rate, fee lines, expiry',
        description:
          'Give exactly one of `amount_from` (what leaves the source, before fees) and ' +
          '`amount_to` (what must arrive; the source amount is then rounded up so at least ' +
          'that arrives). Which target parameters each `order_type` takes is in the table on ' +
          'QuoteQuery (docs/api.md); a parameter the type does not use is 422. ' +
          '`to.amount` = `from.amount` × `rate`, rounded down to the target’s decimals; every ' +
          'fee is in the from currency and `total` = `from.amount` + fees is what the source ' +
          'pays. The quote is stored and good for `QUOTE_TTL_SECONDS` (default 30): place it ' +
          'with `POST /orders/{order_type}` before `expires_at`. The balance is NOT checked ' +
          'here — placing the order is (422 INSUFFICIENT_FUNDS). Every call stores a new ' +
          'quote; a client that re-quotes as the person types may abort the previous call. ' +
          'An address of one of the platform’s own wallets is paid internally, without a ' +
          'network fee (`target.wallet_uuid` set); the paying wallet’s own is 422 ' +
          'TARGET_IS_SOURCE. Another user’s wallet: 404 WALLET_NOT_FOUND; another wallet’s ' +
          'destination: 404 DESTINATION_NOT_FOUND; another user’s fiat account: 404 ' +
          'FIAT_ACCOUNT_NOT_FOUND. An amount outside the limits is 422 AMOUNT_TOO_SMALL or ' +
          'AMOUNT_TOO_LARGE with `limit` {amount, currency}: the bound, in the currency paid. ' +
          'No prices from the rates provider: 502 RATES_UNAVAILABLE.',
        querystring: QuoteQuery,
        response: { 200: Quote, ...problems },
      },
    },
    (request) => translateErrors(service.create(request.auth, request.query), toProblem),
  )

  const directions = {
    schema: {
      tags: ['orders'],
      summary: 'Every direction money can move in, with indicative rates, limits and fees',
      description:
        'Filters combine with AND: `from_uuid`, `to_uuid` (currency uuids) and `order_type`. ' +
        'Rates are the mid rate less the spread, as of `as_of`, and only indicative: ' +
        '`GET /orders/calc` gives a firm one. `min_amount`/`max_amount` bound `amount_from`. ' +
        'Card top-ups are listed in the currencies of the tenant’s active card programs, ' +
        'with the lowest program’s `fee_percent` (a quote charges the account’s own program’s). ' +
        'The whole list is one page.',
      querystring: ExchangeQuery,
      response: {
        200: ExchangeDirectionList,
        401: Problem,
        422: Problem,
        423: Problem,
        502: Problem,
      },
    },
  }
  const listDirections = (request: { auth: { tenantId: string }; query: ExchangeQuery }) =>
    translateErrors(service.directions(request.auth.tenantId, request.query), toProblem)

  // docs/product.md §7 names the path with its trailing slash: the same list, left out of the
  // document (a linted API document has no trailing-slash paths).
  api.get('/exchange', directions, listDirections)
  api.get('/exchange/', { schema: { ...directions.schema, hide: true } }, listDirections)
}
