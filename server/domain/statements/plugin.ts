import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../../config.ts'
import { STATEMENT_JOB, StatementService } from './service.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Issue 31: statements, asked for, rendered by a job, downloaded and verified. */
    statements: StatementService
  }
}

/** Builds the statement service once and registers its rendering job. */
export default fp(
  async function statements(app: FastifyInstance, opts: { config: Config }) {
    const service = new StatementService(app.db, app.jobs, app.providers.bank, {
      publicUrl: opts.config.events.publicUrl,
      distDir: opts.config.distDir,
    })
    app.jobs.register(STATEMENT_JOB, service.render)
    app.decorate('statements', service)
  },
  { name: 'statements', dependencies: ['db', 'jobs', 'providers'] },
)
