import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RateList } from '../../../contract/rates.ts'
import { ratio } from '../../providers/rates/rates.ts'
import { SandboxRates, sandboxPriceMicroUsd } from '../../providers/rates/sandbox.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'

describeServer('exchange rates', () => {
  let app: FastifyInstance
  let token: string
  beforeAll(async () => {
    app = await createTestApp({ RATES_SANDBOX_LATENCY_MS: '0' })
    token = (await signUp(app)).access_token
  })
  afterAll(() => app?.close())

  const get = (url: string, auth: Record<string, string> = bearer(token)) =>
    app.inject({ method: 'GET', url: `/api/v2${url}`, headers: headers(auth) })

  it('prices every catalogue code once, in catalogue order, in USD by default', async () => {
    const response = await get('/rates')
    expect(response.statusCode, response.body).toBe(200)
    const list = response.json<RateList>()
    expect(list.base).toBe('USD')
    expect(new Date(list.as_of).toISOString()).toBe(list.as_of)
    expect(new Date(list.as_of).getUTCSeconds()).toBe(0)
    expect(list.rates.map((rate) => rate.code)).toEqual([
      'BTC',
      'ETH',
      'TRX',
      'POL',
      'SOL',
      'USDT',
      'USDC',
      'EUR',
      'USD',
      'GBP',
    ])
    const rate = Object.fromEntries(list.rates.map((r) => [r.code, r.rate]))
    expect(rate.USD).toBe('1.00')
    for (const value of Object.values(rate)) expect(value).toMatch(/^\d+\.\d{2,8}$/)
    // Plausible: within the sandbox's swing of its reference prices.
    expect(Number(rate.BTC)).toBeGreaterThan(90_000)
    expect(Number(rate.BTC)).toBeLessThan(105_000)
    expect(Number(rate.USDT)).toBeCloseTo(1, 2)
  })

  it('crosses into EUR: each rate is its USD price over the euro', async () => {
    const inEur = (await get('/rates?base=EUR')).json<RateList>()
    // The sandbox is deterministic per minute: as_of names the minute its prices come from.
    const minute = Date.parse(inEur.as_of)
    const euro = sandboxPriceMicroUsd('EUR', minute)!
    expect(inEur.base).toBe('EUR')
    const rate = Object.fromEntries(inEur.rates.map((r) => [r.code, r.rate]))
    expect(rate.EUR).toBe('1.00')
    expect(rate.BTC).toBe(ratio(sandboxPriceMicroUsd('BTC', minute)!, euro))
    expect(rate.USD).toBe(ratio(1_000_000n, euro))
    expect(Number(rate.USD)).toBeLessThan(1)
  })

  it('an unknown or lower-case base is refused with 422', async () => {
    for (const base of ['JPY', 'BTC', 'usd']) {
      expectProblem(await get(`/rates?base=${base}`), 422, 'VALIDATION_FAILED')
    }
  })

  it('needs a signed-in user', async () => {
    expectProblem(await get('/rates', {}), 401, 'UNAUTHORIZED')
  })
})

describe('the sandbox rates provider', () => {
  it('divides exactly, rounding half-even and trimming to two places', () => {
    const cases: [bigint, bigint, string][] = [
      [97_342_180_000n, 1_000_000n, '97342.18'],
      [1_000_000n, 1_000_000n, '1.00'],
      [245_300n, 1_000_000n, '0.2453'],
      [1n, 3n, '0.33333333'],
      [2n, 3n, '0.66666667'],
      // Exactly half at the 8th place: to the even neighbour.
      [5n, 1_000_000_000n, '0.00'],
      [15n, 1_000_000_000n, '0.00000002'],
      [25n, 1_000_000_000n, '0.00000002'],
      [1_000_000n, 1_083_400n, '0.92302012'],
    ]
    for (const [numerator, denominator, expected] of cases) {
      expect(ratio(numerator, denominator), `${numerator}/${denominator}`).toBe(expected)
    }
  })

  it('rounds down when asked (a quoted rate), by less than one unit of the last place', () => {
    expect(ratio(2n, 3n, 8, 'down')).toBe('0.66666666')
    expect(ratio(25n, 1_000_000_000n, 8, 'down')).toBe('0.00000002')
    expect(ratio(29n, 1_000_000_000n, 8, 'down')).toBe('0.00000002')
    expect(ratio(1_000_000n, 1_000_000n, 8, 'down')).toBe('1.00')
  })

  it('drifts deterministically minute by minute, and never below zero', async () => {
    const at = Date.UTC(2026, 0, 1, 12, 0)
    const prices = Array.from({ length: 24 * 60 }, (_, i) =>
      sandboxPriceMicroUsd('BTC', at + i * 60_000),
    )
    expect(new Set(prices).size).toBeGreaterThan(100)
    expect(prices.every((price) => price! > 0n)).toBe(true)
    expect(sandboxPriceMicroUsd('BTC', at)).toBe(sandboxPriceMicroUsd('BTC', at))

    const provider = new SandboxRates({ latencyMs: 0, now: () => at + 59_999 })
    const quote = await provider.quote('USD', ['BTC', 'DOGE'])
    expect(quote.asOf).toEqual(new Date(at))
    expect([...quote.rates.keys()]).toEqual(['BTC'])
  })

  it('refuses a base it cannot price', async () => {
    await expect(new SandboxRates({ latencyMs: 0 }).quote('JPY', ['BTC'])).rejects.toThrow(
      'no price for JPY',
    )
  })
})
