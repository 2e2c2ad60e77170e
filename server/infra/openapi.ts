import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance, FastifySchema } from 'fastify'
import fp from 'fastify-plugin'
import { ORDER_TYPES } from '../../contract/orders.ts'
import { APP_ENV_HEADER, TENANT_HEADER } from '../../contract/tenancy.ts'
import { OPERATION_IDS } from './operation-ids.ts'

type Security = Record<string, string[]>[]

/**
 * What a route asks of the caller, as the document says it: the requirement
 * its policy declared (server/route-guards.ts writes it from the route's entry
 * in server/route-policy.ts), else nothing — the routes outside the policy
 * (health, metrics, this document) are public.
 */
export function securityOf(schema: FastifySchema | undefined): Security {
  return (schema as { security?: Security } | undefined)?.security ?? []
}

interface Parameter {
  in: string
  name: string
  schema?: unknown
}
type Operation = { operationId?: string; parameters?: Parameter[] } & Record<string, unknown>
type Paths = Record<string, Record<string, Operation>>

/** POST /orders/{order_type} beside GET /orders/{id}: one documented path per order type. */
const PER_ORDER_TYPE = { path: '/api/v1/orders/{order_type}', method: 'post', name: 'order_type' }

/**
 * The paths the document gives one route (`path` in the document's `{name}`
 * form): itself, or one per value of a parameter the document spells out —
 * each with that value — so a route's policy can be named per documented path.
 */
export function documentedPaths(
  method: string,
  path: string,
): { path: string; parameter?: { name: string; value: string } }[] {
  if (path !== PER_ORDER_TYPE.path || method.toLowerCase() !== PER_ORDER_TYPE.method) {
    return [{ path }]
  }
  return ORDER_TYPES.map((value) => ({
    path: path.replace(`{${PER_ORDER_TYPE.name}}`, value),
    parameter: { name: PER_ORDER_TYPE.name, value },
  }))
}

/**
 * The document a client is generated from (it passes `redocly lint`, `npm test`):
 * one path per shape — docs/product.md §7's pairs that name a parameter two ways
 * (`addresses/{chain}` and `{chain_id}`) are documented under the first name, the
 * server answering either way, and the order types each get their path — then an
 * operationId for every operation, from operation-ids.ts.
 */
export function finishDocument<D extends { paths?: object }>(document: D): D {
  const paths: Paths = {}
  const names = new Map<string, string>() // a path's shape → the path documented for it
  for (const [path, item] of Object.entries((document.paths ?? {}) as Paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [documented, documentedOperation] of perOrderType(path, method, operation)) {
        const shape = documented.replace(/\{[^}]+\}/g, '{}')
        const canonical = names.get(shape) ?? documented
        names.set(shape, canonical)
        const renamed = renameParameters(documentedOperation, documented, canonical)
        const operationId = OPERATION_IDS[`${method.toUpperCase()} ${canonical}`]
        paths[canonical] ??= {}
        paths[canonical][method] = operationId ? { operationId, ...renamed } : renamed
      }
    }
  }
  return { ...document, paths }
}

function perOrderType(path: string, method: string, operation: Operation): [string, Operation][] {
  const documented = documentedPaths(method, path)
  if (documented.length === 1) return [[path, operation]]
  const parameters = operation.parameters?.filter(
    (parameter) => !(parameter.in === 'path' && parameter.name === PER_ORDER_TYPE.name),
  )
  return documented.map((each) => [each.path, { ...operation, parameters }])
}

/** The path parameters of `operation`, documented at `from`, under the names of `to`. */
function renameParameters(operation: Operation, from: string, to: string): Operation {
  if (from === to) return operation
  const oldNames = [...from.matchAll(/\{([^}]+)\}/g)].map((match) => match[1])
  const newNames = [...to.matchAll(/\{([^}]+)\}/g)].map((match) => match[1])
  const renamed = new Map(oldNames.map((name, index) => [name, newNames[index]!]))
  return {
    ...operation,
    parameters: operation.parameters?.map((parameter) =>
      parameter.in === 'path' && renamed.has(parameter.name)
        ? { ...parameter, name: renamed.get(parameter.name)! }
        : parameter,
    ),
  }
}

/**
 * The OpenAPI 3.1 document is generated from the route schemas, so it cannot
 * drift from what the server validates. Must be registered before the routes.
 */
export default fp(
  async function openapi(app: FastifyInstance) {
    await app.register(swagger, {
      transform: ({ schema, url }) => ({
        schema: { ...schema, security: securityOf(schema) },
        url,
      }),
      transformObject: (documentObject) =>
        finishDocument('openapiObject' in documentObject ? documentObject.openapiObject : {}),
      openapi: {
        openapi: '3.1.0',
        // Relative: the document describes whichever host serves it.
        servers: [{ url: '/', description: 'The server this document came from' }],
        info: {
          title: 'Financial platform API',
          version: '1.0.0',
          description: `Every call under /api/v1 and /api/v2 sends the \`${TENANT_HEADER}\` and \`${APP_ENV_HEADER}\` headers. Errors are RFC 9457 problem details.`,
        },
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            // v1 sends the access token raw, without "Bearer " (docs/product.md §6).
            raw: { type: 'apiKey', in: 'header', name: 'authorization' },
            // Developer keys (issue 8), accepted on both bases instead of a session.
            apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          },
        },
      },
    })
    await app.register(swaggerUi, { routePrefix: '/api/docs' })
    // Swagger UI sets inline styles; only its own pages may, never the app.
    app.addHook('onSend', async (request, reply) => {
      if (!request.url.startsWith('/api/docs')) return
      const csp = reply.getHeader('content-security-policy')
      if (typeof csp === 'string') {
        reply.header(
          'content-security-policy',
          csp.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
        )
      }
    })
    app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger())
  },
  { name: 'openapi' },
)
