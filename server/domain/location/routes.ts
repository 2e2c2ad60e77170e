import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { CountryList } from '../../../contract/location.ts'
import { Problem } from '../../../contract/problem.ts'
import { wholePage } from '../page.ts'
import { countryList } from './countries.ts'

export default async function locationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const countries = countryList()
  // One answer for every caller and tenant, built once.
  const page: CountryList = wholePage([...countries])

  api.get(
    '/location/countries',
    {
      // The sign-in screen's phone field needs it before anyone is signed in.
      config: { public: true },
      schema: {
        tags: ['location'],
        summary: 'Every country with its dialling codes and flag, sorted by English name',
        description: 'The whole list on one page: limit is the total, offset 0.',
        response: { 200: CountryList, 400: Problem, 404: Problem },
      },
    },
    async () => page,
  )
}
