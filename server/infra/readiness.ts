import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { pendingMigrations, readMigrations } from './db/migrate.ts'
import { ProblemError } from './problem.ts'

/**
 * `GET /readyz`: whether this node should get traffic — the database answers and every
 * migration of this build is applied. A load balancer checks it (scripts/cluster); while
 * the node shuts down Fastify answers 503 to it like to every new request, so the balancer
 * stops sending before the node goes. `/healthz` stays liveness: the process serves.
 * Failures answer 503 problem+json; they are logged when the state changes, not at every
 * check of the balancer.
 */
export default fp(
  async function readiness(app: FastifyInstance, opts: { node: string }) {
    const versions = (await readMigrations()).map((migration) => migration.version)
    const schema = Math.max(0, ...versions)
    let lastFailure: string | undefined

    app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
      let failure: ProblemError | undefined
      let cause: unknown
      try {
        const missing = await pendingMigrations(app.db, versions)
        if (missing.length > 0) {
          failure = new ProblemError(
            503,
            'SCHEMA_BEHIND',
            `Migrations this build needs are not applied: ${missing.join(', ')}.`,
          )
        }
      } catch (error) {
        failure = new ProblemError(503, 'DATABASE_UNREACHABLE', 'The database does not answer.')
        cause = error
      }
      if (failure && lastFailure !== failure.code) {
        request.log.warn({ err: cause, code: failure.code }, `not ready: ${failure.message}`)
      }
      if (!failure && lastFailure) request.log.info('ready again')
      lastFailure = failure?.code
      if (failure) {
        return reply.code(503).type('application/problem+json').send(failure.toProblem())
      }
      return { status: 'ready', node: opts.node, schema }
    })
  },
  { name: 'readiness', dependencies: ['db'] },
)
