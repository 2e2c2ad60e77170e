import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { CountryList } from '../../../contract/location.ts'
import { Problem } from '../../../contract/problem.ts'
import { wholePage } from '../page.ts'
import { type CountryLanguage, countryLanguage, countryList } from './countries.ts'

export default async function locationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  // One answer per app language (the ten of contract/languages.ts) for every caller and tenant,
  // built on first ask and kept.
  const pages = new Map<CountryLanguage, CountryList>()
  const pageIn = (language: CountryLanguage) => {
    let page = pages.get(language)
    if (!page) {
      page = wholePage([...countryList(language)])
      pages.set(language, page)
    }
    return page
  }

  api.get(
    '/location/countries',
    {
      // The sign-in screen's phone field needs it before anyone is signed in.
      schema: {
        tags: ['location'],
        summary:
          'Every country with its dialling codes and flag, named and sorted in your language',
        description:
          'The whole list on one page: limit is the total, offset 0. `name` is in the first ' +
          'language of `Accept-Language` the app speaks (any of its ten: en, ru, uk, de, es, ' +
          'pt-BR, tr, id, fa, ar; English when none), and the list is sorted by it; ' +
          '`Content-Language` says which.',
        response: { 200: CountryList, 400: Problem, 404: Problem },
      },
    },
    async (request, reply) => {
      const language = countryLanguage(request.headers['accept-language'])
      reply.header('content-language', language).header('vary', 'Accept-Language')
      return pageIn(language)
    },
  )
}
