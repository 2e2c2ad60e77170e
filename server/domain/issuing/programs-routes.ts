import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { CardProgramList } from '../../../contract/fiat-accounts.ts'
import { PageQuery } from '../../../contract/pagination.ts'
import { Problem } from '../../../contract/problem.ts'

/** The card issuer's configuration (v1): its programs. Protected. */
export default async function programRoutes(app: FastifyInstance) {
  const service = app.services.programs
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/issuing/config/programs',
    {
      schema: {
        tags: ['issuing'],
        summary: 'The tenant’s card programs, active and archived, in the tenant’s order',
        description:
          'Currency, form factors, card type, sub-account type and fees of each program. ' +
          'Only an ACTIVE program opens new fiat accounts and cards.',
        querystring: PageQuery,
        response: { 200: CardProgramList, 401: Problem, 422: Problem, 423: Problem },
      },
    },
    (request) => service.listPrograms(request.auth.tenantId, request.query),
  )
}
