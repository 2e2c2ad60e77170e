import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyContextConfig, FastifyInstance, FastifySchema } from 'fastify'
import fp from 'fastify-plugin'
import { ORDER_TYPES } from '../../contract/orders.ts'
import { APP_ENV_HEADER, TENANT_HEADER } from '../../contract/tenancy.ts'
import { OPERATION_IDS } from './operation-ids.ts'

type Security = Record<string, string[]>[]

/**
 * What a route asks of the caller, as the document says it: its own declared
 * requirement, else nothing for a public route or one outside the two API bases
 * (the sandbox's), else its base's token, or a developer key unless `sessionOnly`
 * (api-scope.ts and auth.ts do the same to declared requirements).
 */
export function securityOf(
  url: string,
  schema: FastifySchema | undefined,
  config: FastifyContextConfig | undefined,
): Security {
  const declared = (schema as { security?: Security } | undefined)?.security
  if (declared) return declared
  const scheme = url.startsWith('/api/v1/') ? 'raw' : url.startsWith('/api/v2/') ? 'bearer' : null
  if (config?.public || !scheme) return []
  return config?.sessionOnly ? [{ [scheme]: [] }] : [{ [scheme]: [] }, { apiKey: [] }]
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
 * The document a client is generated from (it passes `redocly lint`, `npm test`):
 * one path per shape — SPEC.md's pairs that name a parameter two ways
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
  if (path !== PER_ORDER_TYPE.path || method !== PER_ORDER_TYPE.method) return [[path, operation]]
  const parameters = operation.parameters?.filter(
    (parameter) => !(parameter.in === 'path' && parameter.name === PER_ORDER_TYPE.name),
  )
  return ORDER_TYPES.map((type) => [
    path.replace(`{${PER_ORDER_TYPE.name}}`, type),
    { ...operation, parameters },
  ])
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
      transform: ({ schema, url, route }) => ({
        schema: { ...schema, security: securityOf(url, schema, route.config) },
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
            // v1 sends the access token raw, without "Bearer " (SPEC.md §6).
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
