import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config.ts'
import type { RatesProvider } from '../providers/rates/rates.ts'
import { SandboxRates } from '../providers/rates/sandbox.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Exchange rates of the catalogue's currencies, for display only (never to move money). */
    rates: RatesProvider
  }
}

/**
 * Picks the rates provider from RATES_PROVIDER. Only the sandbox exists so
 * far, in every mode: a live market-data adapter joins it behind the same
 * interface (docs/decisions.md).
 */
export default fp(
  async function rates(app: FastifyInstance, opts: { config: Config }) {
    const provider: RatesProvider = new SandboxRates({
      latencyMs: opts.config.rates.sandboxLatencyMs,
    })
    app.addHook('onClose', () => provider.close?.())
    app.decorate('rates', provider)
    app.log.info({ rates: provider.name }, 'rates provider chosen')
  },
  { name: 'rates' },
)
