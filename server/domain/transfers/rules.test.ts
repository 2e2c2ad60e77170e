import { describe, expect, it } from 'vitest'
import {
  addresseeOf,
  contactLabel,
  displayName,
  initialOf,
  needsSecondLook,
  routeOf,
  transferLegs,
} from './rules.ts'

const nobody = { first_name: null, last_name: null, username: null, email: null, phone: null }

describe('how a contact names someone', () => {
  it.each([
    [
      { email: ' Anna@Example.COM ' },
      { kind: 'contact', channel: 'email', value: 'anna@example.com' },
    ],
    [{ phone: '+49 151 2345 6789' }, { kind: 'contact', channel: 'phone', value: '4915123456789' }],
    [
      { telegram_username: '@Anna_B' },
      { kind: 'contact', channel: 'telegram_username', value: 'anna_b' },
    ],
    [
      { user_id: '0190B0A4-0000-7000-8000-000000000001' },
      { kind: 'user', userId: '0190b0a4-0000-7000-8000-000000000001' },
    ],
    [{ phone: 'call me' }, { field: '/body/to/phone', message: 'is not a valid phone number' }],
  ] as const)('%j → %j', (to, addressee) => {
    expect(addresseeOf(to)).toEqual(addressee)
  })

  it.each([
    ['email', 'anna@example.com', 'anna@example.com'],
    ['phone', '4915123456789', '+4915123456789'],
    ['telegram_username', 'anna_b', '@anna_b'],
  ] as const)('%s %s reads %s', (channel, value, label) => {
    expect(contactLabel(channel, value)).toBe(label)
  })
})

describe('how a person is shown to another', () => {
  it.each([
    [{ ...nobody, first_name: 'Anna', last_name: 'schmidt' }, 'Anna S.', 'A'],
    [{ ...nobody, first_name: ' Анна ', last_name: 'Шмидт' }, 'Анна Ш.', 'А'],
    [{ ...nobody, first_name: 'Anna' }, 'Anna', 'A'],
    [{ ...nobody, username: 'anna_b', email: 'anna@example.com' }, '@anna_b', 'A'],
    [{ ...nobody, email: 'anna@example.com' }, 'a***@example.com', 'A'],
    [nobody, '—', '?'],
  ])('%j is %s (%s)', (person, name, initial) => {
    expect(displayName(person)).toBe(name)
    expect(initialOf(name)).toBe(initial)
  })
})

describe('where a payment goes', () => {
  const contact = { kind: 'contact', channel: 'email', value: 'a@example.com' } as const
  const byId = { kind: 'user', userId: 'u1' } as const
  const found = (discoverable: boolean, knownToSender = false) => ({
    userId: 'u1',
    discoverable,
    knownToSender,
  })
  it.each([
    ['a findable customer by contact', contact, found(true), { kind: 'direct', userId: 'u1' }],
    ['a hidden customer by contact: as a stranger', contact, found(false), { kind: 'claimable' }],
    ['a contact nobody has', contact, undefined, { kind: 'claimable' }],
    ['a findable person by id', byId, found(true), { kind: 'direct', userId: 'u1' }],
    [
      'a hidden person paid before, by id',
      byId,
      found(false, true),
      { kind: 'direct', userId: 'u1' },
    ],
    ['a hidden stranger by id', byId, found(false), 'NOT_FOUND'],
    ['an id nobody has', byId, undefined, 'NOT_FOUND'],
  ] as const)('%s', (_, addressee, person, route) => {
    expect(routeOf(addressee, person)).toEqual(route)
  })
})

describe('the second look', () => {
  it.each([
    [true, 10_001n, 10_000n, true],
    [true, 10_000n, 10_000n, false],
    [false, 1_000_000n, 10_000n, false],
    [true, undefined, 10_000n, true],
    [true, 1n, 0n, true],
  ] as const)(
    'first %s, value %s, threshold %s: %s',
    (firstToPayee, value, thresholdMinor, needed) => {
      expect(needsSecondLook({ firstToPayee, value, thresholdMinor })).toBe(needed)
    },
  )
})

describe('the ledger legs of each step', () => {
  const accounts = { senderWallet: 'sw', senderHeld: 'sh', recipientWallet: 'rw' }
  it.each([
    ['direct', 'sw', 'rw'],
    ['hold', 'sw', 'sh'],
    ['claim', 'sh', 'rw'],
    ['return', 'sh', 'sw'],
  ] as const)('%s moves from %s to %s', (step, from, to) => {
    const legs = transferLegs(step, accounts, 'EUR', 500n)
    expect(legs).toHaveLength(2)
    expect(legs.reduce((sum, leg) => sum + leg.amount, 0n)).toBe(0n)
    expect(legs.find((leg) => leg.amount < 0n)?.account).toBe(from)
    expect(legs.find((leg) => leg.amount > 0n)?.account).toBe(to)
  })

  it('a step to the recipient needs their wallet', () => {
    expect(() =>
      transferLegs('direct', { senderWallet: 'sw', senderHeld: 'sh' }, 'EUR', 1n),
    ).toThrow()
  })
})
