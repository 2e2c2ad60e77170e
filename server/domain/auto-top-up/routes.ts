import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AutoTopUp, AutoTopUpBody } from '../../../contract/auto-top-up.ts'
import { Problem } from '../../../contract/problem.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { belongsTo } from '../tenants/product-gate.ts'
import { AutoTopUpError } from './errors.ts'

/** The one switch from auto top-up failures to HTTP answers. */
const toProblem = (error: unknown) => {
  if (!(error instanceof AutoTopUpError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    // Another user's account answers exactly like one that does not exist.
    case 'FIAT_ACCOUNT_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such fiat account.')
    case 'FIAT_ACCOUNT_TYPE_MISMATCH':
      return new ProblemError(
        409,
        failure.kind,
        `Auto top-up is for balance card accounts; this one is ${failure.subAccountType}. Top it up with an order instead.`,
      )
    case 'INVALID_AUTO_TOP_UP':
      return new ProblemError(
        422,
        failure.kind,
        failure.faults
          .map((fault) => `${fault.field.replace('/body/', '')} ${fault.message}`)
          .join(' '),
        { title: 'Unprocessable Content', errors: failure.faults },
      )
    default:
      return assertNever(failure)
  }
}

/**
 * PUT …/auto-top-up needs the second look when it leaves auto top-up on: it
 * lets card payments move money out of a wallet by themselves
 * (route-policy.ts). Turning it off never waits. Run after validation.
 */
export const keepsAutoTopUpOn = (request: FastifyRequest) => (request.body as AutoTopUpBody).enabled

const Params = Type.Object({ id: Type.String({ format: 'uuid' }) })
const problems = {
  401: Problem,
  403: Problem,
  404: Problem,
  409: Problem,
  422: Problem,
  423: Problem,
}

/** A balance card account's auto top-up (v1, issue 30). */
export default async function autoTopUpRoutes(app: FastifyInstance) {
  belongsTo(app, 'cards')
  const { autoTopUp } = app.services
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const tags = ['fiat-accounts']

  api.get(
    '/fiat_accounts/:id/auto-top-up',
    {
      schema: {
        tags,
        summary: 'The balance card account’s auto top-up, today’s use and the last try',
        description:
          'Never set: `enabled: false` and nulls. A prepaid account answers 409 ' +
          'FIAT_ACCOUNT_TYPE_MISMATCH; another user’s, 404 FIAT_ACCOUNT_NOT_FOUND.',
        params: Params,
        response: { 200: AutoTopUp, ...problems },
      },
    },
    (request) => translateErrors(autoTopUp.get(request.auth, request.params.id), toProblem),
  )

  api.put(
    '/fiat_accounts/:id/auto-top-up',
    {
      schema: {
        tags,
        summary: 'Turn auto top-up on or off, and say when, how much and from where',
        description:
          'When a card payment’s clearing leaves the account below `below`, an order on a firm ' +
          'quote of that moment brings it back to `top_up_to`, paid from `from_wallet_uuid` in ' +
          '`from_currency` (the account’s currency, or USDT/USDC), at most `daily_cap` a UTC day; ' +
          'once per clearing, and a refusal is told (`card.auto_top_up.failed`), never retried. ' +
          'On, every field is needed: amounts > 0 in the account’s currency, `top_up_to` > ' +
          '`below`, the wallet one of yours (422 INVALID_AUTO_TOP_UP naming each field). ' +
          'Leaving it on needs the second look (403 STEP_UP_REQUIRED); turning it off never does.',
        params: Params,
        body: AutoTopUpBody,
        response: { 200: AutoTopUp, ...problems },
      },
    },
    (request) =>
      translateErrors(autoTopUp.set(request.auth, request.params.id, request.body), toProblem),
  )
}
