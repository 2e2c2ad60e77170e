import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ChainList, CurrencyList } from '../../../contract/catalog.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'

describeServer('currencies and chains', () => {
  let app: FastifyInstance
  let token: string
  beforeAll(async () => {
    app = await createTestApp()
    token = (await signUp(app)).access_token
  })
  afterAll(() => app?.close())

  const get = (url: string) =>
    app.inject({ method: 'GET', url: `/api/v2${url}`, headers: headers(bearer(token)) })

  it('the chains: five, each with its native currency, address format and confirmations', async () => {
    const response = await get('/chains')
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json<ChainList>()).toEqual({
      data: [
        {
          id: 'bitcoin',
          name: 'Bitcoin',
          native_currency: 'BTC',
          address_format: 'bech32',
          confirmations: 3,
        },
        {
          id: 'ethereum',
          name: 'Ethereum',
          native_currency: 'ETH',
          address_format: 'evm',
          confirmations: 12,
        },
        {
          id: 'tron',
          name: 'Tron',
          native_currency: 'TRX',
          address_format: 'tron',
          confirmations: 19,
        },
        {
          id: 'polygon',
          name: 'Polygon',
          native_currency: 'POL',
          address_format: 'evm',
          confirmations: 128,
        },
        {
          id: 'solana',
          name: 'Solana',
          native_currency: 'SOL',
          address_format: 'solana',
          confirmations: 32,
        },
      ],
      total: 5,
      limit: 5,
      offset: 0,
      is_last_page: true,
    })
  })

  it('chains filter by address format', async () => {
    const list = (await get('/chains?address_format=evm')).json<ChainList>()
    expect(list.data.map((chain) => chain.id)).toEqual(['ethereum', 'polygon'])
  })

  it('the currencies: natives, USDT and USDC per chain, and fiat, with fixed uuids', async () => {
    const list = (await get('/currencies')).json<CurrencyList>()
    expect(list.total).toBe(15)
    expect(list.is_last_page).toBe(true)
    expect(list.data.map((c) => `${c.code}/${c.chain ?? '-'}/${c.type}/${c.decimals}`)).toEqual([
      'BTC/bitcoin/native/8',
      'ETH/ethereum/native/18',
      'TRX/tron/native/6',
      'POL/polygon/native/18',
      'SOL/solana/native/9',
      'USDT/ethereum/token/6',
      'USDT/tron/token/6',
      'USDT/polygon/token/6',
      'USDT/solana/token/6',
      'USDC/ethereum/token/6',
      'USDC/polygon/token/6',
      'USDC/solana/token/6',
      'EUR/-/fiat/2',
      'USD/-/fiat/2',
      'GBP/-/fiat/2',
    ])
    expect(list.data.find((c) => c.code === 'EUR')).toEqual({
      uuid: 'fc3b2351-726b-4cca-abda-4cfdcf917b0b',
      code: 'EUR',
      name: 'Euro',
      type: 'fiat',
      decimals: 2,
      chain: null,
    })
  })

  it('currencies filter by type, chain and code (any letter case), combined', async () => {
    const codes = async (query: string) =>
      (await get(`/currencies?${query}`))
        .json<CurrencyList>()
        .data.map((c) => `${c.code}/${c.chain}`)
    expect(await codes('type=fiat')).toEqual(['EUR/null', 'USD/null', 'GBP/null'])
    expect(await codes('chain=tron')).toEqual(['TRX/tron', 'USDT/tron'])
    expect(await codes('code=usdc')).toEqual(['USDC/ethereum', 'USDC/polygon', 'USDC/solana'])
    expect(await codes('type=token&chain=solana')).toEqual(['USDT/solana', 'USDC/solana'])
    expect(await codes('code=BTC&chain=ethereum')).toEqual([])
  })

  it('an unknown filter value answers 422', async () => {
    expectProblem(await get('/currencies?type=stock'), 422, 'VALIDATION_FAILED')
    expectProblem(await get('/chains?address_format=base58'), 422, 'VALIDATION_FAILED')
  })

  it('without a session the catalogue answers 401', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v2/currencies',
      headers: headers(),
    })
    expectProblem(response, 401, 'UNAUTHORIZED')
  })
})
