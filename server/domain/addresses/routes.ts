import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { CHAIN_IDS } from '../../../contract/catalog.ts'
import { oneOf } from '../../../contract/enums.ts'
import { normaliseName } from '../../../contract/names.ts'
import { Problem } from '../../../contract/problem.ts'
import { CreateAddressBody, WalletAddress, WalletAddressList } from '../../../contract/wallets.ts'
import { translateErrors } from '../../infra/problem.ts'
import { belongsTo } from '../tenants/product-gate.ts'
import { translateWalletError } from '../wallets/routes.ts'

/** Address failures are the wallet's: another user's answers exactly like a missing one. */
const toProblem = translateWalletError

// An unknown chain fails the path schema: 422 VALIDATION_FAILED naming /params/chain
// (docs/decisions.md), like every other enum value the API does not know.
const CreateParams = Type.Object({
  wallet_uuid: Type.String({ format: 'uuid' }),
  chain: oneOf(CHAIN_IDS),
})
const ListParams = Type.Object({
  wallet_uuid: Type.String({ format: 'uuid' }),
  chain_id: oneOf(CHAIN_IDS),
})
const problems = { 401: Problem, 404: Problem, 422: Problem, 423: Problem }

/** Deposit addresses of the signed-in user's wallets (docs/product.md §7). Protected. */
export default async function addressRoutes(app: FastifyInstance) {
  belongsTo(app, 'crypto')
  const service = app.services.addresses
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/wallets/:wallet_uuid/addresses/:chain',
    {
      schema: {
        tags: ['wallets'],
        summary: 'A new deposit address for the wallet on a chain',
        description:
          'Derived from the tenant’s seed at the next index of the chain’s derivation path ' +
          '(Ethereum and Polygon share one sequence), so the address is valid on its chain and ' +
          'belongs to this wallet alone. A wallet may have several addresses per chain.',
        params: CreateParams,
        body: Type.Optional(CreateAddressBody),
        response: { 201: WalletAddress, ...problems },
      },
    },
    async (request, reply) => {
      const { wallet_uuid, chain } = request.params
      const label = normaliseName(request.body?.label ?? '') || null
      const address = await translateErrors(
        service.createAddress(request.auth, wallet_uuid, chain, label),
        toProblem,
      )
      return reply.code(201).send(address)
    },
  )

  api.get(
    '/wallets/:wallet_uuid/addresses/:chain_id',
    {
      schema: {
        tags: ['wallets'],
        summary: 'The wallet’s deposit addresses on a chain, oldest first',
        description: 'All of them on one page (limit = total).',
        params: ListParams,
        response: { 200: WalletAddressList, ...problems },
      },
    },
    (request) =>
      translateErrors(
        service.listAddresses(request.auth, request.params.wallet_uuid, request.params.chain_id),
        toProblem,
      ),
  )
}
