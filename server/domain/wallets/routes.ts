import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { PageQuery } from '../../../contract/pagination.ts'
import { Problem } from '../../../contract/problem.ts'
import { CreateWalletBody, Wallet, WalletList } from '../../../contract/wallets.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { WalletError, type WalletFailure } from './errors.ts'

/** The one switch from wallet failures to HTTP answers (other areas' WALLET_NOT_FOUND included). */
export function walletProblem(failure: WalletFailure): ProblemError {
  switch (failure.kind) {
    // Another user's wallet answers exactly like one that does not exist.
    case 'WALLET_NOT_FOUND':
      return new ProblemError(404, 'WALLET_NOT_FOUND', 'No such wallet.')
    case 'WALLET_TYPE_NOT_OFFERED':
      return new ProblemError(
        422,
        'WALLET_TYPE_NOT_OFFERED',
        `This service offers ${failure.offered.join(', ') || 'no'} wallets.`,
        { errors: [{ field: '/body/type', message: `One of: ${failure.offered.join(', ')}.` }] },
      )
    default:
      return assertNever(failure)
  }
}

/** For the routes of every area whose use cases fail with a WalletError. */
export const translateWalletError = (error: unknown) =>
  error instanceof WalletError ? walletProblem(error.failure) : undefined
const toProblem = translateWalletError

const WalletParams = Type.Object({ wallet_uuid: Type.String({ format: 'uuid' }) })
const problems = { 401: Problem, 422: Problem, 423: Problem }

/** The signed-in user's wallets and their balances. Protected. */
export default async function walletRoutes(app: FastifyInstance) {
  const service = app.services.wallets
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/wallets',
    {
      schema: {
        tags: ['wallets'],
        summary: 'Create a wallet of any type; a user may have several',
        body: CreateWalletBody,
        response: { 201: Wallet, ...problems },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await translateErrors(service.createWallet(request.auth, request.body.type), toProblem),
        ),
  )

  api.get(
    '/wallets',
    {
      schema: {
        tags: ['wallets'],
        summary: 'The signed-in user’s wallets with balances, oldest first',
        querystring: PageQuery,
        response: { 200: WalletList, ...problems },
      },
    },
    (request) => service.listWallets(request.auth, request.query),
  )

  api.get(
    '/wallets/:wallet_uuid',
    {
      schema: {
        tags: ['wallets'],
        summary: 'One wallet with its balances per currency (available and pending)',
        description:
          'Lists the currencies the wallet has ever held, in catalogue order. ' +
          'Another user’s wallet answers 404 WALLET_NOT_FOUND, like one that does not exist.',
        params: WalletParams,
        response: { 200: Wallet, 404: Problem, ...problems },
      },
    },
    (request) =>
      translateErrors(service.getWallet(request.auth, request.params.wallet_uuid), toProblem),
  )
}
