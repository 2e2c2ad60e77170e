import { describe, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { flagOf, parseCommand, UsageError } from './cli.ts'

describe('the tenant CLI’s command line', () => {
  it.each([
    [['list'], { name: 'list' }],
    [['show', DEMO_TENANT_ID.toUpperCase()], { name: 'show', id: DEMO_TENANT_ID }],
    [['--help'], { name: 'help' }],
    [
      ['create', '--name', 'Acme', '--primary-color=#AA0000', '--products.cards=false'],
      {
        name: 'create',
        id: undefined,
        changes: { name: 'Acme', primary_color: '#AA0000', products: { cards: false } },
      },
    ],
    [
      [
        'update',
        DEMO_TENANT_ID,
        '--products.p2p',
        'off',
        '--products.fiat=yes',
        '--wallet-types',
        'personal, trading',
        '--supported-countries=de,fr',
        '--logout-url=',
        '--support-phone',
        'none',
      ],
      {
        name: 'update',
        id: DEMO_TENANT_ID,
        changes: {
          products: { p2p: false, fiat: true },
          wallet_types: ['personal', 'trading'],
          supported_countries: ['DE', 'FR'],
          logout_url: null,
          support_phone: null,
        },
      },
    ],
    [
      ['update', DEMO_TENANT_ID, '--supported-countries', 'all'],
      { name: 'update', id: DEMO_TENANT_ID, changes: { supported_countries: null } },
    ],
  ])('%j', (argv, command) => {
    expect(parseCommand(argv)).toEqual(command)
  })

  it.each([
    [[], /No command/],
    [['delete', DEMO_TENANT_ID], /Unknown command: delete/],
    [['show'], /needs the tenant's id/],
    [['show', 'acme'], /Not a tenant id/],
    [['create'], /needs --name/],
    [['create', '--name', 'A', '--id', 'nope'], /--id must be a UUID/],
    [['create', '--name', 'A', '--colour', 'red'], /Unknown option '--colour'/],
    [['update', DEMO_TENANT_ID], /needs a setting/],
    [['list', '--name', 'x'], /takes no settings/],
  ])('%j is not understood', (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(UsageError)
    expect(() => parseCommand(argv)).toThrow(message)
  })

  it('names a fault by the flag that set it', () => {
    expect(flagOf('/products/cards')).toBe('--products.cards')
    expect(flagOf('/wallet_types/2')).toBe('--wallet-types')
    expect(flagOf('/primary_color')).toBe('--primary-color')
  })
})
