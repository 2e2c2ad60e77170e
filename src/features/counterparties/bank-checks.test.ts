import fc from 'fast-check'
import { composeIBAN, isValidIBAN } from 'ibantools'
import { describe, expect, it } from 'vitest'
import {
  caretAfter,
  checkIban,
  groupIban,
  isBic,
  isRoutingNumber,
  isUsAccountNumber,
  isUuid,
  looksLikeAddress,
} from './bank-checks.ts'

describe('IBAN', () => {
  it.each([
    ['DE89370400440532013000'],
    ['de89 3704 0044 0532 0130 00'],
    ['GB82WEST12345698765432'],
    ['FR1420041010050500013M02606'],
    ['NO9386011117947'],
    ['LC55HEMM000100010012001200023015'],
  ])('accepts %s', (iban) => {
    expect(checkIban(iban)).toBeUndefined()
  })

  it.each([
    ['DE89370400440532013001', 'checksum'],
    ['GB82WEST12345698765433', 'checksum'],
    ['DE8937040044', 'format'],
    ['D189370400440532013000', 'format'],
    ['DEXX370400440532013000', 'format'],
    ['', 'format'],
  ] as const)('refuses %s (%s)', (iban, problem) => {
    expect(checkIban(iban)).toBe(problem)
  })

  // ibantools is the server's judge: whatever it composes as valid passes here too, and a
  // single wrong digit, which mod 97 always catches, is refused by both.
  it('agrees with ibantools on valid IBANs and on one-digit typos', () => {
    const bbans = fc.record({
      country: fc.constantFrom('DE', 'GB', 'FR', 'NL', 'ES'),
      digits: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 30, maxLength: 30 }),
      at: fc.nat(),
      plus: fc.integer({ min: 1, max: 9 }),
    })
    const shapes: Record<string, string> = {
      DE: '000000000000000000',
      GB: 'ABCD00000000000000',
      FR: '0000000000000000000000000',
      NL: 'ABCD0000000000',
      ES: '00000000000000000000',
    }
    let checked = 0
    fc.assert(
      fc.property(bbans, ({ country, digits, at, plus }) => {
        let next = 0
        const bban = shapes[country]!.replace(/0/g, () => String(digits[next++]))
        const iban = composeIBAN({ countryCode: country, bban })
        // Some countries check their BBAN too (a national check digit): those are skipped.
        if (!iban || !isValidIBAN(iban)) return
        checked++
        expect(checkIban(iban)).toBeUndefined()
        const positions = [...iban].flatMap((c, i) => (i >= 4 && /\d/.test(c) ? [i] : []))
        const index = positions[at % positions.length]!
        const typo = `${iban.slice(0, index)}${(Number(iban[index]) + plus) % 10}${iban.slice(index + 1)}`
        expect(isValidIBAN(typo)).toBe(false)
        expect(checkIban(typo)).toBe('checksum')
      }),
    )
    expect(checked).toBeGreaterThan(30)
  })

  it('groups in fours, upper case, at most 34 characters', () => {
    expect(groupIban('de89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00')
    expect(groupIban(' DE89-3704 ')).toBe('DE89 3704')
    expect(groupIban('A'.repeat(40)).replace(/ /g, '')).toHaveLength(34)
  })

  it.each([
    ['DE89 3704', 0, 0],
    ['DE89 3704', 4, 4],
    ['DE89 3704', 5, 6],
    ['DE89 3704', 8, 9],
    ['DE89', 9, 4],
  ])('puts the caret in %j after %i characters at %i', (grouped, characters, position) => {
    expect(caretAfter(grouped, characters)).toBe(position)
  })
})

describe('BIC', () => {
  it.each(['DEUTDEFF', 'DEUTDEFF500', 'nedszajjxxx'])('accepts %s', (bic) => {
    expect(isBic(bic)).toBe(true)
  })
  it.each(['DEUTDEF', 'DEU1DEFF', 'DEUTDEFF50', 'DEUT DEFF'])('refuses %s', (bic) => {
    expect(isBic(bic)).toBe(false)
  })
})

describe('ABA routing number', () => {
  it.each(['021000021', '011000015', '121000358'])('accepts %s', (routing) => {
    expect(isRoutingNumber(routing)).toBe(true)
  })
  it.each(['021000022', '12345678', '0210000210', '02100002a'])('refuses %s', (routing) => {
    expect(isRoutingNumber(routing)).toBe(false)
  })
})

describe('US account number', () => {
  it.each([
    ['1234', true],
    ['12345678901234567', true],
    ['123', false],
    ['123456789012345678', false],
    ['1234-5678', false],
  ])('%s → %s', (account, valid) => {
    expect(isUsAccountNumber(account)).toBe(valid)
  })
})

describe('address shapes', () => {
  it.each([
    ['evm', '0x52908400098527886E0F7030069857D2E4169EE7', true],
    ['evm', '0x52908400098527886E0F7030069857D2E4169EE', false],
    ['evm', '52908400098527886E0F7030069857D2E4169EE7', false],
    ['tron', 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW', true],
    ['tron', 'AJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW', false],
    ['solana', '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', true],
    ['solana', '0EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', false],
    ['bech32', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', true],
    ['bech32', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', true],
    ['bech32', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', true],
    ['bech32', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3tb', false],
    ['bech32', 'bc1qw508d6qejxtdg4y5r3zARVARY0c5xw7kv8f3t4', false],
    ['evm', '0x5290 8400098527886E0F7030069857D2E4169EE7', false],
    [undefined, 'anything-at-all', true],
  ])('%s %s → %s', (format, address, valid) => {
    expect(looksLikeAddress(format, address)).toBe(valid)
  })
})

it('knows a uuid', () => {
  expect(isUuid('0190b0a4-0000-7000-8000-0000000000a1')).toBe(true)
  expect(isUuid('0190b0a4-0000-7000-8000-0000000000a')).toBe(false)
})
