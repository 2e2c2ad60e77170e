import { describe, expect, it } from 'vitest'
import { countryList } from '../location/countries.ts'
import {
  DEFAULT_SETTINGS,
  isAppPath,
  isLink,
  productsFrom,
  resolveSettings,
  supportedCountries,
} from './rules.ts'

const base = { ...DEFAULT_SETTINGS, name: 'Acme' }
const faultsOf = (changes: Record<string, unknown>) => {
  const resolved = resolveSettings(base, changes)
  return resolved.faults?.map((fault) => fault.field) ?? []
}

describe('tenant settings', () => {
  it('the defaults with a name are valid as they are', () => {
    expect(resolveSettings(base, {})).toEqual({ settings: base })
  })

  it('a new tenant needs a name', () => {
    expect(resolveSettings(DEFAULT_SETTINGS, {}).faults).toEqual([
      { field: '/name', message: expect.stringContaining('name') },
    ])
    expect(faultsOf({ name: '   ' })).toEqual(['/name'])
    expect(faultsOf({ name: 'x'.repeat(101) })).toEqual(['/name'])
  })

  it.each([
    ['#3B5BFD', '#3b5bfd'],
    ['#00ff00', '#00ff00'],
  ])('takes the colour %s as %s', (given, stored) => {
    expect(resolveSettings(base, { primary_color: given, accent_color: given })).toMatchObject({
      settings: { primary_color: stored, accent_color: stored },
    })
  })

  it.each(['red', '#fff', '#12345g', 'rgb(0,0,0)', '#1234567', 42, null])(
    'refuses the colour %j',
    (color) => {
      expect(faultsOf({ primary_color: color })).toEqual(['/primary_color'])
    },
  )

  it.each([
    ['https://cdn.acme.example/logo.svg', true],
    ['/icons/icon-192.png', true],
    ['/', true],
    ['http://acme.example/logo.svg', false],
    ['//evil.example/logo.svg', false],
    ['/\\evil.example', false],
    ['javascript:alert(1)', false],
    ['data:image/png;base64,AAAA', false],
    ['https://user:pass@acme.example/', false],
    ['logo.svg', false],
    ['https://acme.example/a b', false],
    ['', false],
  ])('a link %j is %s', (link, ok) => {
    expect(isLink(link)).toBe(ok)
    expect(faultsOf({ support_url: link, logout_url: link })).toEqual(
      ok ? [] : ['/support_url', '/logout_url'],
    )
  })

  it.each([
    ['/icons/icon-192.png', true],
    ['/branding/acme.svg', true],
    // The CSP shows images of the app's own origin only: an https host would never show.
    ['https://cdn.acme.example/logo.svg', false],
    ['//cdn.acme.example/logo.svg', false],
    ['/\\cdn.acme.example', false],
    ['data:image/png;base64,AAAA', false],
    ['logo.svg', false],
    ['/a b.svg', false],
  ])('a logo %j is %s', (logo, ok) => {
    expect(isAppPath(logo)).toBe(ok)
    expect(faultsOf({ logo_url: logo })).toEqual(ok ? [] : ['/logo_url'])
  })

  it('links may be cleared with null', () => {
    const settings = { ...base, logo_url: '/logo.svg', logout_url: 'https://acme.example/bye' }
    expect(resolveSettings(settings, { logo_url: null, logout_url: null })).toMatchObject({
      settings: { logo_url: null, logout_url: null },
    })
  })

  it('products change one by one and must be known booleans', () => {
    expect(resolveSettings(base, { products: { cards: false } })).toMatchObject({
      settings: { products: { ...DEFAULT_SETTINGS.products, cards: false } },
    })
    expect(faultsOf({ products: { cards: 'no' } })).toEqual(['/products/cards'])
    expect(faultsOf({ products: { lending: true } })).toEqual(['/products/lending'])
    expect(faultsOf({ products: ['cards'] })).toEqual(['/products'])
  })

  it('products read back in their own order, one added later taking its default', () => {
    expect(Object.entries(productsFrom({ p2p: false, cards: false, crypto: true }))).toEqual([
      ['crypto', true],
      ['fiat', true],
      ['cards', false],
      ['exchange', true],
      ['p2p', false],
    ])
  })

  it('wallet types: known, not twice, at least one', () => {
    expect(faultsOf({ wallet_types: ['personal', 'trading'] })).toEqual([])
    expect(faultsOf({ wallet_types: ['personal', 'savings'] })).toEqual(['/wallet_types/1'])
    expect(faultsOf({ wallet_types: ['personal', 'personal'] })).toEqual(['/wallet_types/1'])
    expect(faultsOf({ wallet_types: [] })).toEqual(['/wallet_types'])
    expect(faultsOf({ wallet_types: 'personal' })).toEqual(['/wallet_types'])
  })

  it('the display currency is one totals can be shown in', () => {
    expect(faultsOf({ default_display_currency: 'GBP' })).toEqual([])
    expect(faultsOf({ default_display_currency: 'JPY' })).toEqual(['/default_display_currency'])
    expect(faultsOf({ default_display_currency: 'BTC' })).toEqual(['/default_display_currency'])
    expect(faultsOf({ default_display_currency: 'eur' })).toEqual(['/default_display_currency'])
  })

  it('countries: known ISO codes, stored sorted and once; null is every country', () => {
    expect(resolveSettings(base, { supported_countries: ['FR', 'DE', 'FR'] })).toMatchObject({
      settings: { supported_countries: ['DE', 'FR'] },
    })
    expect(faultsOf({ supported_countries: ['DE', 'ZZ', 'de'] })).toEqual([
      '/supported_countries/1',
      '/supported_countries/2',
    ])
    expect(faultsOf({ supported_countries: [] })).toEqual(['/supported_countries'])
    expect(supportedCountries({ supported_countries: null })).toHaveLength(countryList().length)
    expect(supportedCountries({ supported_countries: ['GB'] })).toEqual(['GB'])
  })

  it('support: an e-mail address, and a phone number with its country code, kept in E.164', () => {
    expect(resolveSettings(base, { support_phone: '+44 20 7946 0958' })).toMatchObject({
      settings: { support_phone: '+442079460958' },
    })
    expect(faultsOf({ support_phone: '020 7946 0958' })).toEqual(['/support_phone'])
    expect(faultsOf({ support_phone: '+1 555' })).toEqual(['/support_phone'])
    expect(faultsOf({ support_email: 'help@acme' })).toEqual(['/support_email'])
    expect(faultsOf({ support_email: 'help@acme.example' })).toEqual([])
  })

  it('names an unknown setting, and every fault at once', () => {
    expect(
      faultsOf({ colour: '#000000', primary_color: 'red', default_display_currency: 'JPY' }),
    ).toEqual(['/colour', '/primary_color', '/default_display_currency'])
  })
})
