import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { CardTransactionList } from '../../../contract/card-transactions.ts'
import {
  CreateFiatAccountBody,
  CreateFiatAccountV1Body,
  FiatAccount,
  FiatAccountDetailQuery,
  FiatAccountList,
  FiatAccountQuery,
} from '../../../contract/fiat-accounts.ts'
import { HistoryQuery } from '../../../contract/pagination.ts'
import { Problem } from '../../../contract/problem.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { toProblem as transactionProblem } from '../card-transactions/routes.ts'
import { belongsTo } from '../tenants/product-gate.ts'
import { WalletError } from '../wallets/errors.ts'
import { translateWalletError } from '../wallets/routes.ts'
import { FiatAccountError } from './errors.ts'

/** The one switch from fiat-account failures to HTTP answers. */
const toProblem = (error: unknown) => {
  // Another user's wallet or account answers exactly like one that does not exist.
  const walletProblem = translateWalletError(error)
  if (walletProblem) return walletProblem
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
    default:
      return assertNever(failure)
  }
}

const uuid = Type.String({ format: 'uuid' })
const WalletParams = Type.Object({ wallet_uuid: uuid })
const problems = { 401: Problem, 404: Problem, 422: Problem, 423: Problem }

/** A wallet's fiat accounts (v2). Protected. */
export default async function fiatAccountRoutes(app: FastifyInstance) {
  belongsTo(app, 'cards')
  const service = app.services.fiatAccounts
  const transactions = app.services.reads.cardTransactions
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/fiat-accounts/:wallet_uuid',
    {
      schema: {
        tags: ['fiat-accounts'],
        summary: 'A wallet’s fiat accounts with their balances, oldest first',
        description:
          '`show_cards=true` adds each account’s cards (not CLOSED; last four digits only). ' +
          '`lt_cards_limit` / `gt_cards_limit` keep accounts with fewer / more cards: ' +
          '`lt_cards_limit=2&gt_cards_limit=0` is the accounts with exactly one card. ' +
          'Another user’s wallet answers 404 WALLET_NOT_FOUND, like one that does not exist.',
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
        params: Type.Object({ wallet_uuid: uuid, fiat_account_id: uuid }),
        querystring: FiatAccountDetailQuery,
        response: { 200: FiatAccount, ...problems },
      },
    },
    (request) =>
      translateErrors(
        service.get(
          request.auth,
          request.params.wallet_uuid,
          request.params.fiat_account_id,
          request.query.show_cards === true,
        ),
        toProblem,
      ),
  )

  api.get(
    '/fiat-accounts/:wallet_uuid/:fiat_account_id/transactions',
    {
      schema: {
        tags: ['fiat-accounts'],
        summary: 'The card transactions of one fiat account, newest first',
        description:
          'The same records as `GET /api/v1/issuing/transactions/?fiat_account_id=`. Another ' +
          'user’s account, or one of another wallet, answers 404 FIAT_ACCOUNT_NOT_FOUND.',
        params: Type.Object({ wallet_uuid: uuid, fiat_account_id: uuid }),
        querystring: HistoryQuery,
        response: { 200: CardTransactionList, ...problems },
      },
    },
    (request) =>
      translateErrors(
        transactions((service) =>
          service.list(
            request.auth,
            {
              fiat_account_id: request.params.fiat_account_id,
              walletId: request.params.wallet_uuid,
            },
            request.query,
          ),
        ),
        transactionProblem,
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

/**
 * v1 (raw token): the same accounts as v2, answered the same. The wallet of
 * `POST /fiat_accounts` is a body field, so a wallet that is missing or not
 * the caller's is 422 WALLET_NOT_FOUND naming `/body/wallet_id`.
 */
export async function fiatAccountV1Routes(app: FastifyInstance) {
  belongsTo(app, 'cards')
  const service = app.services.fiatAccounts
  const transactions = app.services.reads.cardTransactions
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const v1Problem = (error: unknown) => {
    if (error instanceof WalletError && error.failure.kind === 'WALLET_NOT_FOUND') {
      return new ProblemError(422, 'WALLET_NOT_FOUND', 'No such wallet.', {
        title: 'Unprocessable Content',
        errors: [{ field: '/body/wallet_id', message: 'No such wallet.' }],
      })
    }
    return toProblem(error)
  }

  api.get(
    '/fiat_accounts/list/:wallet_id',
    {
      schema: {
        tags: ['fiat-accounts'],
        summary: 'A wallet’s fiat accounts (v1; the same data as v2)',
        description:
          'As `GET /api/v2/fiat-accounts/{wallet_uuid}`: limit, offset, show_cards, ' +
          'lt_cards_limit, gt_cards_limit.',
        params: Type.Object({ wallet_id: uuid }),
        querystring: FiatAccountQuery,
        response: { 200: FiatAccountList, ...problems },
      },
    },
    (request) =>
      translateErrors(
        service.list(request.auth, request.params.wallet_id, request.query),
        toProblem,
      ),
  )

  api.get(
    '/fiat_accounts/:id',
    {
      schema: {
        tags: ['fiat-accounts'],
        summary: 'One of the caller’s fiat accounts (v1)',
        description: 'Another user’s account answers 404 FIAT_ACCOUNT_NOT_FOUND.',
        params: Type.Object({ id: uuid }),
        querystring: FiatAccountDetailQuery,
        response: { 200: FiatAccount, ...problems },
      },
    },
    (request) =>
      translateErrors(
        service.get(request.auth, undefined, request.params.id, request.query.show_cards === true),
        toProblem,
      ),
  )

  api.post(
    '/fiat_accounts',
    {
      schema: {
        tags: ['fiat-accounts'],
        summary: 'Open a fiat account under a card program (v1)',
        description:
          'As `POST /api/v2/fiat-accounts/{wallet_id}`, the wallet in the body: a wallet that ' +
          'is missing or another user’s answers 422 WALLET_NOT_FOUND naming `/body/wallet_id`.',
        body: CreateFiatAccountV1Body,
        response: { 201: FiatAccount, ...problems },
      },
    },
    async (request, reply) => {
      const account = await translateErrors(
        service.create(request.auth, request.body.wallet_id, request.body.program_id),
        v1Problem,
      )
      return reply.code(201).send(account)
    },
  )

  api.get(
    '/fiat_accounts/:id/transactions',
    {
      schema: {
        tags: ['fiat-accounts'],
        summary: 'The card transactions of one fiat account, newest first (v1)',
        description: 'Another user’s account answers 404 FIAT_ACCOUNT_NOT_FOUND.',
        params: Type.Object({ id: uuid }),
        querystring: HistoryQuery,
        response: { 200: CardTransactionList, ...problems },
      },
    },
    (request) =>
      translateErrors(
        transactions((service) =>
          service.list(request.auth, { fiat_account_id: request.params.id }, request.query),
        ),
        transactionProblem,
      ),
  )
}
