import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { ChainList, ChainQuery, CurrencyList, CurrencyQuery } from '../../../contract/catalog.ts'
import { Problem } from '../../../contract/problem.ts'

const problems = { 401: Problem, 422: Problem, 423: Problem }

/** The supported chains and currencies, the same for every tenant, from the replica. Protected. */
export default async function catalogRoutes(app: FastifyInstance) {
  const service = app.services.catalog
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/currencies',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Supported currencies: native coins, tokens per chain, fiat',
        description:
          'Filters combine with AND; `code` matches whatever its letter case. ' +
          'The whole catalogue is one page (limit = total). A currency uuid never changes.',
        querystring: CurrencyQuery,
        response: { 200: CurrencyList, ...problems },
      },
    },
    (request) => service.listCurrencies(request.query),
  )

  api.get(
    '/chains',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Supported chains with their native currency and deposit confirmations',
        querystring: ChainQuery,
        response: { 200: ChainList, ...problems },
      },
    },
    (request) => service.listChains(request.query),
  )
}
