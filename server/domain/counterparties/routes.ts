import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import {
  Counterparty,
  CounterpartyList,
  CounterpartyQuery,
  CreateCounterpartyBody,
  CreateDestinationBody,
  Destination,
  DestinationList,
  DestinationQuery,
  UpdateCounterpartyBody,
  UpdateDestinationBody,
} from '../../../contract/counterparties.ts'
import { Problem } from '../../../contract/problem.ts'
import type { ProblemCode } from '../../../contract/problem-codes.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { translateWalletError } from '../wallets/routes.ts'
import { CounterpartyError } from './errors.ts'

const invalid = (code: ProblemCode, errors: { field: string; message: string }[]) =>
  new ProblemError(422, code, errors.map((e) => `${e.field} ${e.message}`).join('; '), {
    title: 'Unprocessable Content',
    errors,
  })

/** The one switch from counterparty failures to HTTP answers. */
const toProblem = (error: unknown) => {
  // Another user's wallet, counterparty or destination answers exactly like a missing one.
  const walletProblem = translateWalletError(error)
  if (walletProblem) return walletProblem
  if (!(error instanceof CounterpartyError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'COUNTERPARTY_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such counterparty in this wallet.')
    case 'DESTINATION_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such destination.')
    // The same shape as a body that fails its schema (infra/errors.ts).
    case 'COUNTERPARTY_INVALID':
      return invalid('VALIDATION_FAILED', failure.errors)
    case 'DESTINATION_INVALID':
      return invalid('DESTINATION_INVALID', failure.errors)
    case 'DESTINATION_IN_USE':
      return new ProblemError(
        409,
        failure.kind,
        'An order that is not finished yet pays this destination; try again when it has ended.',
      )
    default:
      return assertNever(failure)
  }
}

const Uuid = Type.String({ format: 'uuid' })
const WalletParams = Type.Object({ wallet_id: Uuid })
const CounterpartyParams = Type.Object({ wallet_id: Uuid, counterparty_account_id: Uuid })
const DestinationParams = Type.Object({
  wallet_id: Uuid,
  counterparty_account_id: Uuid,
  counterparty_destination_id: Uuid,
})
const problems = { 401: Problem, 404: Problem, 422: Problem, 423: Problem }
const common = { tags: ['counterparties'] }
const base = '/counterparties/:wallet_id'
const one = `${base}/:counterparty_account_id`
const destinations = `${one}/destinations`

/** The signed-in user's counterparty book, per wallet (docs/product.md §7). Protected. */
export default async function counterpartyRoutes(app: FastifyInstance) {
  const service = app.services.counterparties
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    base,
    {
      schema: {
        ...common,
        summary: 'The wallet’s counterparties, alphabetical by name',
        description:
          '`type` filters by INDIVIDUAL or BUSINESS; `search` matches any part of the name ' +
          '(first, last or legal), ignoring letter case.',
        params: WalletParams,
        querystring: CounterpartyQuery,
        response: { 200: CounterpartyList, ...problems },
      },
    },
    (request) =>
      translateErrors(
        service.listCounterparties(request.auth, request.params.wallet_id, request.query),
        toProblem,
      ),
  )

  api.post(
    base,
    {
      schema: {
        ...common,
        summary: 'Save a person or business the wallet pays',
        description:
          'INDIVIDUAL needs first_name and last_name, BUSINESS legal_name (and not the other ' +
          'type’s names); country (and address.country) one of GET /location/countries; ' +
          'phone with its country code. Every bad field in one 422 VALIDATION_FAILED.',
        params: WalletParams,
        body: CreateCounterpartyBody,
        response: { 201: Counterparty, ...problems },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await translateErrors(
            service.createCounterparty(request.auth, request.params.wallet_id, request.body),
            toProblem,
          ),
        ),
  )

  api.get(
    one,
    {
      schema: {
        ...common,
        summary: 'One counterparty',
        params: CounterpartyParams,
        response: { 200: Counterparty, ...problems },
      },
    },
    (request) =>
      translateErrors(
        service.getCounterparty(
          request.auth,
          request.params.wallet_id,
          request.params.counterparty_account_id,
        ),
        toProblem,
      ),
  )

  api.patch(
    one,
    {
      schema: {
        ...common,
        summary: 'Change a counterparty',
        description:
          'Only the fields sent change; null clears an optional one; the type cannot change. ' +
          'The result is checked as a whole (clearing an INDIVIDUAL’s last_name is 422).',
        params: CounterpartyParams,
        body: UpdateCounterpartyBody,
        response: { 200: Counterparty, ...problems },
      },
    },
    (request) =>
      translateErrors(
        service.updateCounterparty(
          request.auth,
          request.params.wallet_id,
          request.params.counterparty_account_id,
          request.body,
        ),
        toProblem,
      ),
  )

  api.get(
    destinations,
    {
      schema: {
        ...common,
        summary: 'Where a counterparty can be paid, oldest first',
        params: CounterpartyParams,
        querystring: DestinationQuery,
        response: { 200: DestinationList, ...problems },
      },
    },
    (request) =>
      translateErrors(
        service.listDestinations(
          request.auth,
          request.params.wallet_id,
          request.params.counterparty_account_id,
          request.query,
        ),
        toProblem,
      ),
  )

  api.post(
    destinations,
    {
      schema: {
        ...common,
        summary: 'Add a payout destination on one rail',
        description:
          'What each rail requires is the table on `Destination`. Fields of another rail, a ' +
          'wrong IBAN, BIC, routing number, account number or address, a bank_country that is ' +
          'not the BIC’s, an internal wallet that is not the tenant’s or is the counterparty’s ' +
          'own: every one in one 422 DESTINATION_INVALID naming the field.',
        params: CounterpartyParams,
        body: CreateDestinationBody,
        response: { 201: Destination, ...problems },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await translateErrors(
            service.createDestination(
              request.auth,
              request.params.wallet_id,
              request.params.counterparty_account_id,
              request.body,
            ),
            toProblem,
          ),
        ),
  )

  api.get(
    `${destinations}/:counterparty_destination_id`,
    {
      schema: {
        ...common,
        summary: 'One payout destination',
        params: DestinationParams,
        response: { 200: Destination, ...problems },
      },
    },
    (request) =>
      translateErrors(
        service.getDestination(
          request.auth,
          request.params.wallet_id,
          request.params.counterparty_account_id,
          request.params.counterparty_destination_id,
        ),
        toProblem,
      ),
  )

  api.patch(
    `${destinations}/:counterparty_destination_id`,
    {
      schema: {
        ...common,
        summary: 'Change a payout destination',
        description:
          'The rail cannot change; the result is checked as a whole, as on creation. While an ' +
          'order that is not finished pays the destination only `label` may change (409 ' +
          'DESTINATION_IN_USE otherwise).',
        params: DestinationParams,
        body: UpdateDestinationBody,
        response: { 200: Destination, 409: Problem, ...problems },
      },
    },
    (request) =>
      translateErrors(
        service.updateDestination(
          request.auth,
          request.params.wallet_id,
          request.params.counterparty_account_id,
          request.params.counterparty_destination_id,
          request.body,
        ),
        toProblem,
      ),
  )

  api.delete(
    `${destinations}/:counterparty_destination_id`,
    {
      schema: {
        ...common,
        summary: 'Delete a payout destination',
        description:
          '204. While an order in status NEW or PENDING pays it: 409 DESTINATION_IN_USE. ' +
          'Orders that paid it keep their record of it.',
        params: DestinationParams,
        response: { 204: { type: 'null' }, 409: Problem, ...problems },
      },
    },
    async (request, reply) => {
      await translateErrors(
        service.deleteDestination(
          request.auth,
          request.params.wallet_id,
          request.params.counterparty_account_id,
          request.params.counterparty_destination_id,
        ),
        toProblem,
      )
      return reply.code(204).send()
    },
  )
}
