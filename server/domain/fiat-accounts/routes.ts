import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import {
  CreateFiatAccountBody,
  FiatAccount,
  FiatAccountList,
  FiatAccountQuery,
} from '../../../contract/fiat-accounts.ts'
import { Problem } from '../../../contract/problem.ts'
import { ProblemError, translateErrors } from '../../infra/problem.ts'
import { WalletNotFoundError } from '../wallets/service.ts'
import { FiatAccountError } from './errors.ts'
import { FiatAccountService } from './service.ts'

/** The one switch from fiat-account failures to HTTP answers. */
const toProblem = (error: unknown) => {
  // Another user's wallet or account answers exactly like one that does not exist.
  if (error instanceof WalletNotFoundError) {
    return new ProblemError(404, 'WALLET_NOT_FOUND', 'No such wallet.')
  }
  if (!(error instanceof FiatAccountError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'FIAT_ACCOUNT_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such fiat account.')
    case 'PROGRAM_NOT_FOUND':
    case 'PROGRAM_ARCHIVED': {
      const message =
        failure.kind === 'PROGRAM_NOT_FOUND'
          ? 'No such card program.'
          : 'This card program is archived: it opens no new accounts.'
      return new ProblemError(422, failure.kind, message, {
        title: 'Unprocessable Content',
        errors: [{ field: '/body/program_id', message }],
      })
    }
  }
}

const uuid = Type.String({ format: 'uuid' })
const WalletParams = Type.Object({ wallet_uuid: uuid })
const problems = { 401: Problem, 404: Problem, 422: Problem, 423: Problem }

/** A wallet's fiat accounts (v2). Protected. */
export default async function fiatAccountRoutes(app: FastifyInstance) {
  const service = new FiatAccountService(app.db)
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/fiat-accounts/:wallet_uuid',
    {
      schema: {
        tags: ['fiat-accounts'],
        summary: 'A wallet’s fiat accounts with their balances, oldest first',
        description:
          '`show_cards` is accepted; cards arrive with card issuing and are not listed yet. ' +
          'Another user’s wallet answers 404 WALLET_NOT_FOUND, like one that does not exist.',
        security: [{ bearer: [] }],
        params: WalletParams,
        querystring: FiatAccountQuery,
        response: { 200: FiatAccountList, ...problems },
      },
    },
    (request) =>
      translateErrors(
        service.list(request.auth, request.params.wallet_uuid, request.query),
        toProblem,
      ),
  )

  api.get(
    '/fiat-accounts/:wallet_uuid/:fiat_account_id',
    {
      schema: {
        tags: ['fiat-accounts'],
        summary: 'One fiat account of the wallet, with its balance',
        description: 'Another user’s account, or one of another wallet, answers 404.',
        security: [{ bearer: [] }],
        params: Type.Object({ wallet_uuid: uuid, fiat_account_id: uuid }),
        response: { 200: FiatAccount, ...problems },
      },
    },
    (request) =>
      translateErrors(
        service.get(request.auth, request.params.wallet_uuid, request.params.fiat_account_id),
        toProblem,
      ),
  )

  api.post(
    '/fiat-accounts/:wallet_id',
    {
      schema: {
        tags: ['fiat-accounts'],
        summary: 'Open a fiat account in the wallet under a card program',
        description:
          'The account takes the program’s currency and sub-account type and starts at 0. ' +
          'A program that is not the tenant’s answers 422 PROGRAM_NOT_FOUND, an archived one ' +
          '422 PROGRAM_ARCHIVED, both naming `/body/program_id`.',
        security: [{ bearer: [] }],
        params: Type.Object({ wallet_id: uuid }),
        body: CreateFiatAccountBody,
        response: { 201: FiatAccount, ...problems },
      },
    },
    async (request, reply) => {
      const account = await translateErrors(
        service.create(request.auth, request.params.wallet_id, request.body.program_id),
        toProblem,
      )
      return reply.code(201).send(account)
    },
  )
}
