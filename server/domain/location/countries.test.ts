import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Country, CountryList } from '../../../contract/location.ts'
import { createTestApp, describeServer, expectProblem, headers } from '../../test-support.ts'
import { isKnownCountry } from './countries.ts'

describeServer('the country list', () => {
  let app: FastifyInstance
  let list: CountryList
  const country = (code: string) => list.data.find((entry) => entry.code === code)
  beforeAll(async () => {
    app = await createTestApp()
    const response = await app.inject({
      method: 'GET',
      url: '/api/v2/location/countries',
      headers: headers(),
    })
    expect(response.statusCode, response.body).toBe(200)
    list = response.json<CountryList>()
  })
  afterAll(() => app?.close())

  it('is public, and the whole list is one last page', () => {
    expect(list.total).toBeGreaterThan(200)
    expect(list).toMatchObject({
      total: list.data.length,
      limit: list.data.length,
      offset: 0,
      is_last_page: true,
    })
  })

  it('gives each country its dialling codes as digit strings and its emoji flag', () => {
    expect(country('US')).toEqual<Country>({
      code: 'US',
      name: 'United States',
      dial_codes: ['1'],
      flag: '🇺🇸',
    })
    expect(country('RU')?.dial_codes).toEqual(['7'])
    expect(country('GB')?.dial_codes).toEqual(['44'])
    for (const entry of list.data) {
      expect(entry.code).toMatch(/^[A-Z]{2}$/)
      expect(entry.dial_codes.length, entry.code).toBeGreaterThan(0)
      for (const code of entry.dial_codes) expect(code).toMatch(/^[0-9]+$/)
    }
  })

  it('is sorted by English name', () => {
    const names = list.data.map((entry) => entry.name)

    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')))
    expect(names[0]).toBe('Afghanistan')
  })

  it('names each country once', () => {
    expect(new Set(list.data.map((entry) => entry.code)).size).toBe(list.total)
  })

  it('the profile accepts exactly the countries the list offers', () => {
    expect(list.data.every((entry) => isKnownCountry(entry.code))).toBe(true)
    expect(isKnownCountry('ZZ')).toBe(false)
    expect(isKnownCountry('us')).toBe(false)
  })

  it('still needs the tenant header, like every v2 call', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v2/location/countries' })

    expectProblem(response, 400, 'TENANT_REQUIRED')
  })
})
