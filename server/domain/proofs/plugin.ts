import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { Config } from '../../config.ts'
import { PUBLISH_JOB, publishRound, schedulePublishing } from './publish-job.ts'
import { ProofService } from './service.ts'
import { ProofKeys } from './signing-keys.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Issue 33: the proof of balances (publishing, the roots and key, a person's proof). */
    proofs: ProofService
  }
}

/**
 * The proof of balances: its service on the tenants' keys and the reserves
 * provider, and the daily publishing round on the job runner — due at once
 * at start when a tenant has not published today. In the sandbox the demo
 * tenant has a key from the first start, so a fresh demo has its proof.
 */
export default fp(
  async function proofs(app: FastifyInstance, opts: { config: Config }) {
    const { config } = opts
    const keys = new ProofKeys(app.db, config.secrets.proofKeysKey)
    const service = new ProofService(app.db, keys, app.providers.reserves)
    app.decorate('proofs', service)
    app.jobs.register(PUBLISH_JOB, publishRound(service))
    app.addHook('onReady', async () => {
      if (config.sandbox && config.demo.seed) await keys.ensure(DEMO_TENANT_ID)
      // Where tests drive the queue by hand, nothing is added to it unasked.
      if (config.jobs.pollMs > 0) await schedulePublishing(app.db, app.jobs, service, new Date())
    })
  },
  { name: 'proofs', dependencies: ['db', 'jobs', 'providers'] },
)
