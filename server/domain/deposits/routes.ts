import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { CHAIN_IDS } from '../../../contract/catalog.ts'
import { oneOf } from '../../../contract/enums.ts'
import { Amount } from '../../../contract/money.ts'
import { Problem } from '../../../contract/problem.ts'
import { WalletTransaction } from '../../../contract/wallets.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { DepositError } from './errors.ts'

/** The one switch from deposit failures to HTTP answers. */
const toProblem = (error: unknown) => {
  if (!(error instanceof DepositError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'WALLET_NOT_FOUND':
    case 'CURRENCY_NOT_ON_CHAIN':
    case 'NO_DEPOSIT_ADDRESS':
    case 'UNKNOWN_ADDRESS':
    case 'INVALID_TX_HASH':
    case 'INVALID_AMOUNT':
      return new ProblemError(422, failure.kind, failure.message, {
        title: 'Unprocessable Content',
        errors: [{ field: `/body/${failure.field}`, message: failure.message }],
      })
    case 'IDEMPOTENCY_CONFLICT':
      return new ProblemError(
        409,
        failure.kind,
        'This transaction hash (or idempotency key) was used for a different deposit.',
      )
    default:
      return assertNever(failure)
  }
}

const SandboxDepositBody = Type.Object(
  {
    wallet_uuid: Type.String({ format: 'uuid' }),
    chain: oneOf(CHAIN_IDS),
    currency: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'A currency uuid, or its code on the chain (USDT, usdc, ETH…)',
    }),
    amount: Amount,
    address: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Default: the newest one' }),
    ),
    tx_hash: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Default: a plausible one' }),
    ),
    request_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
)

/**
 * /api/sandbox/deposits: the sandbox chain provider. A deposit is seen at
 * once and completes after a few sandbox blocks, driven by the job runner.
 */
export default async function sandboxDepositRoutes(app: FastifyInstance) {
  // The outside party may name a tenant; read by the same hook as every API route's.
  app.addHook('onRequest', app.readTenant)
  const service = app.services.deposits
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/deposits',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Simulate an incoming crypto deposit to one of a wallet’s addresses',
        description:
          'Answers 202 with the DEPOSIT_CRYPTO_EXTERNAL record (status new). It then goes ' +
          'pending (seen on chain: the amount shows as pending) and complete (available) after ' +
          'the chain’s confirmations, capped at SANDBOX_MAX_CONFIRMATIONS (default 3), one per ' +
          'SANDBOX_BLOCK_MS (default 1 s). No token; X-Tenant-Id is optional and, when sent, ' +
          'must be the wallet’s tenant. The same tx_hash, request_id or Idempotency-Key again ' +
          'answers the first record; with a different deposit, 409.',
        headers: Type.Object({
          'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        }),
        body: SandboxDepositBody,
        response: { 202: WalletTransaction, 409: Problem, 422: Problem },
      },
    },
    async (request, reply) => {
      const body = request.body
      const deposit = await translateErrors(
        service.create({
          tenantId: request.tenantId || undefined,
          walletId: body.wallet_uuid,
          chain: body.chain,
          currency: body.currency,
          amount: body.amount,
          address: body.address,
          txHash: body.tx_hash,
          idempotencyKey: body.request_id ?? request.headers['idempotency-key'],
        }),
        toProblem,
      )
      return reply.code(202).send(deposit)
    },
  )
}
