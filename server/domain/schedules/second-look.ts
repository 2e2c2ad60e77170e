import type { FastifyInstance, FastifyRequest } from 'fastify'

/**
 * POST /schedules and PATCH /schedules/{id} need the second look when they
 * set up, or resume, a schedule that pays out (a transfer or a withdrawal):
 * it makes money movable for as long as it runs. An exchange's does not, nor
 * pausing or skipping (route-policy.ts).
 */
export const movesMoneyOutLater = (request: FastifyRequest, app: FastifyInstance) => {
  const body = (request.body ?? {}) as { kind?: string; paused?: boolean }
  return app.services.schedules.movesMoneyOut(request.auth, {
    kind: body.kind,
    id: (request.params as { id?: string }).id,
    paused: body.paused,
  })
}
