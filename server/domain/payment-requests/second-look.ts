import type { FastifyInstance, FastifyRequest } from 'fastify'

/**
 * POST /payment-requests/{id}/pay needs the second look when the payer never
 * paid its requester and the amount is above the tenant's threshold
 * (route-policy.ts): a request link is how a thief would ask to be paid.
 */
export const firstPaymentToRequester = (request: FastifyRequest, app: FastifyInstance) =>
  app.services.paymentRequests.needsSecondLook(request.auth, (request.params as { id: string }).id)
