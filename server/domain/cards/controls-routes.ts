import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { CardControls } from '../../../contract/card-controls.ts'
import { translateErrors } from '../../infra/problem.ts'
import { belongsTo } from '../tenants/product-gate.ts'
import { CardParams, problems, toProblem } from './routes.ts'

/** Card controls (v1, issue 30): what the card may be used for. */
export default async function cardControlRoutes(app: FastifyInstance) {
  belongsTo(app, 'cards')
  const { cards } = app.services
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const tags = ['issuing']

  api.get(
    '/issuing/cards/:id/controls',
    {
      schema: {
        tags,
        summary: 'What the card may be used for: channels, categories, countries, merchants',
        description:
          'A card nobody set controls for answers the defaults: every channel but magstripe, ' +
          'nothing blocked, no category limits.',
        params: CardParams,
        response: { 200: CardControls, ...problems },
      },
    },
    (request) => translateErrors(cards.controls(request.auth, request.params.id), toProblem),
  )

  api.put(
    '/issuing/cards/:id/controls',
    {
      schema: {
        tags,
        summary: 'Replace the card’s controls',
        description:
          'The card network applies them to every authorisation after the card’s status and ' +
          'before its limits and the balance (declines CHANNEL_BLOCKED, COUNTRY_BLOCKED, ' +
          'MERCHANT_BLOCKED, CATEGORY_BLOCKED, CATEGORY_LIMIT_EXCEEDED). Countries must be ' +
          'known (GET /api/v2/location/countries); one category limit per category and ' +
          'interval, a positive amount in the account’s currency (422 INVALID_CONTROLS naming ' +
          'each field). Loosening them — a channel turned on, a category, country or merchant ' +
          'unblocked, more countries allowed, a category limit raised or removed — needs the ' +
          'second look (403 STEP_UP_REQUIRED); tightening never does. A closed card answers 409.',
        params: CardParams,
        body: CardControls,
        response: { 200: CardControls, ...problems },
      },
    },
    (request) =>
      translateErrors(cards.setControls(request.auth, request.params.id, request.body), toProblem),
  )
}
