import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client'

export type RefreshOutcome = 'rotated' | 'grace' | 'reuse_revoked' | 'invalid'

export interface Metrics {
  registry: Registry
  tokenRefresh: Counter<'outcome'>
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics
  }
}

/**
 * A registry per app instance (not prom-client's global one), so tests that
 * build many apps in one process count separately. Every series carries the
 * node's name (NODE_NAME): behind a load balancer each node is scraped on its
 * own, and the label keeps their series apart wherever they are gathered.
 */
export default fp(
  async function metrics(app: FastifyInstance, opts: { node: string }) {
    const registry = new Registry()
    registry.setDefaultLabels({ node: opts.node })
    collectDefaultMetrics({ register: registry })

    const tokenRefresh = new Counter({
      name: 'auth_token_refresh_total',
      help: 'Refresh-token exchanges by outcome',
      labelNames: ['outcome'] as const,
      registers: [registry],
    })
    for (const outcome of ['rotated', 'grace', 'reuse_revoked', 'invalid'] as const) {
      tokenRefresh.inc({ outcome }, 0)
    }

    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    })
    app.addHook('onResponse', async (request, reply) => {
      // The route pattern, not the URL: ids in paths would explode the label set.
      const route = request.routeOptions.url ?? 'unmatched'
      duration.observe(
        { method: request.method, route, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      )
    })

    app.decorate('metrics', { registry, tokenRefresh })
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
      reply.type(registry.contentType).send(await registry.metrics()),
    )
  },
  { name: 'metrics' },
)
