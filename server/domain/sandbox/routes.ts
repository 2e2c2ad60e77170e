import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { Problem } from '../../../contract/problem.ts'
import { Outbox } from '../../../contract/sandbox.ts'
import { listOutbox } from '../../providers/messaging/sandbox.ts'
import { normalisePhone } from '../otp/phone.ts'
import { normaliseEmail } from '../otp/rules.ts'

const OutboxQuery = Type.Object(
  {
    /** An e-mail in any letter case, or a phone in any format. */
    to: Type.Optional(Type.String({ minLength: 1, maxLength: 254 })),
    tenant_id: Type.Optional(Type.String({ format: 'uuid' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  },
  { additionalProperties: false },
)

/**
 * The recipient as the outbox keeps it. Forgiving on purpose, unlike sign-in:
 * a number the validator refuses is still looked up by its digits.
 */
function outboxRecipient(to: string): string {
  if (to.includes('@')) return normaliseEmail(to)
  return normalisePhone(to) ?? to.replace(/\D/g, '')
}

/**
 * /api/sandbox/*: what the sandbox providers did, for tests, e2e and anyone
 * trying the demo. Registered only with SANDBOX=true, outside the API bases:
 * no tenant header, no token.
 */
export default async function sandboxRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/outbox',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Messages the sandbox "sent" (codes included), newest first',
        querystring: OutboxQuery,
        response: { 200: Outbox, 422: Problem },
      },
    },
    async (request) => {
      const { to, tenant_id, limit = 50 } = request.query
      const data = await listOutbox(app.db, {
        to: to === undefined ? undefined : outboxRecipient(to),
        tenantId: tenant_id?.toLowerCase(),
        limit,
      })
      return { data }
    },
  )
}
