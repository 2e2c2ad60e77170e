import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { CardControls } from '../../../contract/card-controls.ts'
import type { CardLimits } from '../../../contract/cards.ts'

/**
 * PATCH /issuing/cards/{id}/limits needs the second look only when it raises a
 * limit (route-policy.ts): lowering one is what a person does when they fear
 * for the card, and must never wait for a proof. Run after validation, so the
 * body is CardLimits.
 */
export const raisesCardLimits = (request: FastifyRequest, app: FastifyInstance) =>
  app.services.cards.raisesLimits(
    request.auth,
    (request.params as { id: string }).id,
    request.body as CardLimits,
  )

/**
 * PUT /issuing/cards/{id}/controls needs the second look only when it loosens
 * them (a channel turned on, something unblocked, a category limit raised or
 * gone): tightening is what a worried person does, at once (issue 30).
 */
export const loosensCardControls = (request: FastifyRequest, app: FastifyInstance) =>
  app.services.cards.loosensControls(
    request.auth,
    (request.params as { id: string }).id,
    request.body as CardControls,
  )
