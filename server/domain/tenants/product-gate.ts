import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ORDER_TYPE_PRODUCT, type Product } from '../../../contract/tenants.ts'
import { ProblemError } from '../../infra/problem.ts'
import { TenantService } from './service.ts'

/** A route's product: fixed, or read from the request (an order's type). */
export type ProductRule = Product | ((request: FastifyRequest) => Product | undefined)

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The product this route belongs to: refused with 403 PRODUCT_DISABLED where it is off. */
    product?: ProductRule
  }
}

const PRODUCT_NAMES: Record<Product, string> = {
  crypto: 'crypto wallets',
  fiat: 'fiat accounts and bank transfers',
  cards: 'cards',
  exchange: 'exchange',
  p2p: 'P2P trading',
}

/**
 * Every route registered after this call in `app`'s scope belongs to
 * `product` (unless the route names its own): one line in a routes plugin
 * instead of a flag on each route.
 */
export function belongsTo(app: FastifyInstance, product: Product): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, product: route.config?.product ?? product }
  })
}

/** For `config.product` of an order route: the product of the order type in the path or query. */
export function productOfOrderType(request: FastifyRequest): Product | undefined {
  const fromParams = (request.params as { order_type?: unknown } | undefined)?.order_type
  const fromQuery = (request.query as { order_type?: unknown } | undefined)?.order_type
  const type = fromParams ?? fromQuery
  // An unknown type is left to the route's schema: it answers 422 for it.
  return typeof type === 'string' && Object.hasOwn(ORDER_TYPE_PRODUCT, type)
    ? ORDER_TYPE_PRODUCT[type as keyof typeof ORDER_TYPE_PRODUCT]
    : undefined
}

/**
 * Refuses the calls of the products a tenant switched off: a route opts in
 * with `config: { product }`. Runs before validation (a disabled product is
 * the answer whatever the body), after the API scope named the tenant and
 * checked the caller: a stranger learns nothing but 401. Read on every gated
 * call, uncached (within the session check's own query when a person signed
 * in), so `npm run tenant -- update` takes effect at once on every server.
 */
export default fp(
  async function productGate(app: FastifyInstance) {
    const tenants = new TenantService(app.db)
    app.addHook('preValidation', async (request) => {
      const rule = request.routeOptions.config.product
      if (rule === undefined || request.tenantId === '') return
      const product = typeof rule === 'function' ? rule(request) : rule
      if (product === undefined) return
      // Read with the session by a signed-in call (auth/authenticate.ts); an API key's call reads it here.
      const products = request.tenantProducts ?? (await tenants.products(request.tenantId))
      if (products && products[product] === false) {
        throw new ProblemError(
          403,
          'PRODUCT_DISABLED',
          `This service does not offer ${PRODUCT_NAMES[product]} (product "${product}").`,
        )
      }
    })
  },
  { name: 'product-gate', dependencies: ['db', 'tenancy'] },
)
