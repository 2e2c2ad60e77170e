import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { CreateTransferBody } from '../../../contract/transfers.ts'

/**
 * POST /transfers needs the second look for a first payment to someone new
 * above the tenant's threshold (route-policy.ts): a stolen session's first
 * move is to pay a stranger, and a friend paid before is no stranger. Run
 * after validation, so the body is CreateTransferBody.
 */
export const firstPaymentToNewPayee = (request: FastifyRequest, app: FastifyInstance) => {
  const body = request.body as CreateTransferBody
  return app.services.transfers.needsSecondLook(request.auth, {
    to: body.to,
    currencyUuid: body.currency_uuid,
    amount: body.amount,
  })
}
