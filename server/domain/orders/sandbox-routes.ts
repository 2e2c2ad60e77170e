import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { SandboxBankTransfer, SandboxBankTransferBody } from '../../../contract/orders.ts'
import { Problem } from '../../../contract/problem.ts'
import { translateErrors } from '../../infra/problem.ts'
import { toProblem } from './routes.ts'

/**
 * /api/sandbox/bank-transfers: the sandbox bank reports a transfer that
 * reached the platform's account. Its reference completes the deposit order
 * awaiting it, at once.
 */
export default async function sandboxBankRoutes(app: FastifyInstance) {
  // The outside party may name a tenant; read by the same hook as every API route's.
  app.addHook('onRequest', app.readTenant)
  const service = app.services.orders
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/bank-transfers',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Simulate an incoming SEPA or SWIFT transfer to the platform’s bank account',
        description:
          'The reference of a DEPOSIT_FIAT_SEPA or DEPOSIT_FIAT_SWIFT order awaiting its ' +
          'transfer (any letter case, dashes and spaces optional) completes it: the wallet is ' +
          'credited `to.amount`, the fees go to the platform. `amount` and `currency` must be ' +
          'the instructed ones (422 AMOUNT_MISMATCH naming the field); an unknown reference is ' +
          '422 REFERENCE_UNKNOWN; a second transfer for the order 409 TRANSFER_ALREADY_RECEIVED; ' +
          'a cancelled order 409 ORDER_NOT_AWAITING_TRANSFER. No token; X-Tenant-Id is ' +
          'optional and, when sent, must be the order’s tenant.',
        body: SandboxBankTransferBody,
        response: { 201: SandboxBankTransfer, 409: Problem, 422: Problem },
      },
    },
    async (request, reply) => {
      const transfer = await translateErrors(
        service.receiveBankTransfer({
          tenantId: request.tenantId || undefined,
          reference: request.body.reference,
          amount: request.body.amount,
          currency: request.body.currency,
          senderName: request.body.sender_name,
          senderIban: request.body.sender_iban,
        }),
        toProblem,
      )
      return reply.code(201).send(transfer)
    },
  )
}
