import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { APP_ENV_HEADER, TENANT_HEADER } from '../../contract/tenancy.ts'

/**
 * The OpenAPI 3.1 document is generated from the route schemas, so it cannot
 * drift from what the server validates. Must be registered before the routes.
 */
export default fp(
  async function openapi(app: FastifyInstance) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
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
