import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Problem } from '../../../contract/problem.ts'
import { RateList, RatesQuery } from '../../../contract/rates.ts'
import { ProblemError } from '../../infra/problem.ts'
import { RatesUnavailableError } from '../../providers/rates/rates.ts'

const problems = { 401: Problem, 422: Problem, 423: Problem, 502: Problem }

/** Exchange rates for showing totals in a display currency. Protected. */
export default async function rateRoutes(app: FastifyInstance) {
  const service = app.services.rates
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/rates',
    {
      schema: {
        tags: ['catalog'],
        summary: "Every catalogue currency's rate in a fiat base, for display",
        description:
          '`rate` is units of `base` per 1 unit of `code`, rounded half-even to at most 8 places. ' +
          'Rates are for showing converted totals, never for moving money.',
        querystring: RatesQuery,
        response: { 200: RateList, ...problems },
      },
    },
    async (request) => {
      try {
        return await service.list(request.query.base ?? 'USD')
      } catch (error) {
        if (error instanceof RatesUnavailableError) {
          throw new ProblemError(502, 'RATES_UNAVAILABLE', 'Exchange rates are unavailable.')
        }
        throw error
      }
    },
  )
}
