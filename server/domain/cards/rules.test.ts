import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  CARD_STATUSES,
  type CardStatus,
  cardFinished,
  cardRevealable,
  DELIVERY_STATUSES,
} from '../../../contract/cards.ts'
import {
  ACTIVATION_TRIES,
  ACTIVATION_WINDOW_MS,
  activationRetryAfter,
  afterWrongCode,
  anniversariesBy,
  anniversary,
  type CardAction,
  defaultLimits,
  deriveCvv,
  expiryFor,
  feePeriod,
  formatExpiry,
  generatePan,
  isFresh,
  isLuhnValid,
  limitFaults,
  luhnCheckDigit,
  nextDelivery,
  nextStatus,
  parseExchangePlaintext,
} from './rules.ts'

describe('Luhn', () => {
  it.each([
    ['4111111111111111', true],
    ['4111111111111112', false],
    ['5555555555554444', true],
    ['378282246310005', true],
    ['79927398713', true],
    ['79927398710', false],
    ['4111 1111 1111 1111', false],
    ['', false],
  ])('%s → %s', (number, valid) => {
    expect(isLuhnValid(number)).toBe(valid)
  })

  it('computes the check digit of a partial number', () => {
    expect(luhnCheckDigit('7992739871')).toBe(3)
    expect(luhnCheckDigit('411111111111111')).toBe(1)
  })
})

describe('generatePan', () => {
  it.each(['40001200', '539991', '5399920'])('16 Luhn-valid digits under BIN %s', (bin) => {
    for (let i = 0; i < 50; i++) {
      const pan = generatePan(bin)
      expect(pan).toMatch(/^[0-9]{16}$/)
      expect(pan.startsWith(bin)).toBe(true)
      expect(isLuhnValid(pan)).toBe(true)
    }
  })

  it('uses the randomness it is given', () => {
    expect(generatePan('400012', () => 0)).toBe(
      `400012000000000${luhnCheckDigit('400012000000000')}`,
    )
  })

  it('refuses a BIN that is not 6 to 8 digits', () => {
    expect(() => generatePan('12345')).toThrow(/BIN/)
    expect(() => generatePan('123456789')).toThrow(/BIN/)
    expect(() => generatePan('40a012')).toThrow(/BIN/)
  })
})

describe('expiry', () => {
  it('is the month of issue three years on, in UTC', () => {
    expect(expiryFor(new Date('2026-11-22T09:00:00Z'))).toEqual({ month: 11, year: 2029 })
    expect(expiryFor(new Date('2026-12-31T23:59:59Z'))).toEqual({ month: 12, year: 2029 })
    expect(expiryFor(new Date('2027-01-01T00:00:00Z'))).toEqual({ month: 1, year: 2030 })
  })

  it('prints as MM/YY', () => {
    expect(formatExpiry({ month: 3, year: 2029 })).toBe('03/29')
    expect(formatExpiry({ month: 12, year: 2100 })).toBe('12/00')
  })
})

describe('deriveCvv', () => {
  const cvk = new Uint8Array(32).fill(7)
  const pan = '4000120000000006'

  it('is HMAC-SHA256(CVK, "PAN|MMYY"), first four bytes modulo 1000, three digits', () => {
    const mac = createHmac('sha256', cvk).update(`${pan}|0329`).digest()
    const expected = String(mac.readUInt32BE(0) % 1000).padStart(3, '0')
    expect(deriveCvv(cvk, pan, { month: 3, year: 2029 })).toBe(expected)
  })

  it('is the same every time and differs with the key, the number and the expiry', () => {
    const expiry = { month: 3, year: 2029 }
    const cvv = deriveCvv(cvk, pan, expiry)
    expect(cvv).toMatch(/^[0-9]{3}$/)
    expect(deriveCvv(cvk, pan, expiry)).toBe(cvv)
    const byPan = new Set(
      Array.from({ length: 20 }, (_, i) =>
        deriveCvv(
          cvk,
          generatePan('400012', () => i % 10),
          expiry,
        ),
      ),
    )
    const byKey = new Set(
      Array.from({ length: 20 }, (_, i) => deriveCvv(new Uint8Array(32).fill(i), pan, expiry)),
    )
    expect(byPan.size).toBeGreaterThan(5)
    expect(byKey.size).toBeGreaterThan(5)
  })
})

describe('card state machine', () => {
  const legal: Record<CardAction, Partial<Record<CardStatus, CardStatus>>> = {
    freeze: { ACTIVE: 'FROZEN' },
    unfreeze: { FROZEN: 'ACTIVE' },
    close: {
      ACTIVE: 'CLOSED',
      FROZEN: 'CLOSED',
      BLOCKED: 'CLOSED',
      INACTIVE: 'CLOSED',
      CANCELED: 'CLOSED',
    },
    activate: { INACTIVE: 'ACTIVE' },
  }
  const table = (['freeze', 'unfreeze', 'close', 'activate'] as const).flatMap((action) =>
    CARD_STATUSES.map((status) => [action, status, legal[action][status]] as const),
  )

  it.each(table)('%s on %s → %s', (action, status, expected) => {
    const result = nextStatus(status, action)
    if (expected) expect(result).toEqual({ ok: true, status: expected })
    else expect(result).toEqual({ ok: false, current: status })
  })

  it('reveals only for cards neither closed, cancelled nor waiting for activation', () => {
    expect(CARD_STATUSES.filter(cardRevealable)).toEqual(['ACTIVE', 'FROZEN', 'BLOCKED'])
    expect(CARD_STATUSES.filter(cardFinished)).toEqual(['CANCELED', 'CLOSED'])
  })
})

describe('activation tries', () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const ago = (ms: number) => new Date(now.getTime() - ms)

  it('counts wrong codes in a window opened by the first one; a closed window starts again', () => {
    expect(afterWrongCode({ failures: 0, since: null }, now)).toEqual({ failures: 1, since: now })
    expect(afterWrongCode({ failures: 3, since: ago(60_000) }, now)).toEqual({
      failures: 4,
      since: ago(60_000),
    })
    expect(afterWrongCode({ failures: 5, since: ago(ACTIVATION_WINDOW_MS) }, now)).toEqual({
      failures: 1,
      since: now,
    })
  })

  it('refuses every try once the window holds ACTIVATION_TRIES wrong codes, until it ends', () => {
    expect(activationRetryAfter({ failures: 0, since: null }, now)).toBeUndefined()
    expect(
      activationRetryAfter({ failures: ACTIVATION_TRIES - 1, since: ago(1_000) }, now),
    ).toBeUndefined()
    expect(activationRetryAfter({ failures: ACTIVATION_TRIES, since: ago(600_000) }, now)).toBe(
      3_000,
    )
    expect(
      activationRetryAfter(
        { failures: ACTIVATION_TRIES, since: ago(ACTIVATION_WINDOW_MS - 10) },
        now,
      ),
    ).toBe(1)
    expect(
      activationRetryAfter({ failures: ACTIVATION_TRIES, since: ago(ACTIVATION_WINDOW_MS) }, now),
    ).toBeUndefined()
  })
})

describe('delivery', () => {
  it('goes ORDERED → SHIPPED → DELIVERED, then nowhere', () => {
    expect(DELIVERY_STATUSES.map(nextDelivery)).toEqual(['SHIPPED', 'DELIVERED', undefined])
  })
})

describe('monthly anniversaries', () => {
  const at = (iso: string) => new Date(iso)

  it.each([
    ['2026-01-15T10:30:00.000Z', 1, '2026-02-15T10:30:00.000Z'],
    ['2026-01-31T10:30:00.000Z', 1, '2026-02-28T10:30:00.000Z'],
    ['2028-01-31T10:30:00.000Z', 1, '2028-02-29T10:30:00.000Z'],
    ['2026-01-31T10:30:00.000Z', 2, '2026-03-31T10:30:00.000Z'],
    ['2026-01-31T10:30:00.000Z', 3, '2026-04-30T10:30:00.000Z'],
    ['2026-11-30T00:00:00.000Z', 3, '2027-02-28T00:00:00.000Z'],
    ['2026-12-05T23:59:59.999Z', 1, '2027-01-05T23:59:59.999Z'],
    ['2026-03-10T08:00:00.000Z', 0, '2026-03-10T08:00:00.000Z'],
  ])('%s + %i months → %s', (issued, n, expected) => {
    expect(anniversary(at(issued), n).toISOString()).toBe(expected)
  })

  it.each([
    ['2026-01-15T10:30:00.000Z', '2026-01-20T00:00:00.000Z', 0],
    ['2026-01-15T10:30:00.000Z', '2026-02-15T10:29:59.999Z', 0],
    ['2026-01-15T10:30:00.000Z', '2026-02-15T10:30:00.000Z', 1],
    ['2026-01-15T10:30:00.000Z', '2026-04-01T00:00:00.000Z', 2],
    ['2026-01-31T00:00:00.000Z', '2026-02-28T00:00:00.000Z', 1],
    ['2026-01-31T00:00:00.000Z', '2026-03-30T00:00:00.000Z', 1],
    ['2026-01-31T00:00:00.000Z', '2027-01-31T00:00:00.000Z', 12],
    ['2026-05-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z', 0],
  ])('issued %s, by %s: %i anniversaries', (issued, now, expected) => {
    expect(anniversariesBy(at(issued), at(now))).toBe(expected)
  })

  it('names the period by the anniversary’s month', () => {
    expect(feePeriod(at('2027-02-28T10:30:00.000Z'))).toBe('2027-02')
    expect(feePeriod(at('2026-12-31T23:59:59.999Z'))).toBe('2026-12')
  })
})

describe('limits', () => {
  it('defaults to 1 000 / 2 500 / 10 000 in minor units of the currency', () => {
    expect(defaultLimits(2)).toEqual({
      per_transaction: 100_000n,
      daily: 250_000n,
      monthly: 1_000_000n,
    })
  })

  it.each([
    [{ per_transaction: 1n, daily: 1n, monthly: 1n }, []],
    [{ per_transaction: 100n, daily: 200n, monthly: 300n }, []],
    [{ per_transaction: 0n, daily: 200n, monthly: 300n }, ['per_transaction']],
    [{ per_transaction: 0n, daily: 0n, monthly: 0n }, ['per_transaction', 'daily', 'monthly']],
    [{ per_transaction: 300n, daily: 200n, monthly: 300n }, ['per_transaction']],
    [{ per_transaction: 100n, daily: 400n, monthly: 300n }, ['daily']],
    [{ per_transaction: 500n, daily: 400n, monthly: 300n }, ['per_transaction', 'daily']],
  ])('%o → faults in %o', (limits, fields) => {
    expect(limitFaults(limits).map((fault) => fault.field)).toEqual(fields)
  })
})

describe('secret exchange plaintext', () => {
  const key = Buffer.alloc(32, 5).toString('base64')
  const text = (value: unknown) => new Uint8Array(Buffer.from(JSON.stringify(value)))

  it('reads {key, timestamp}', () => {
    const parsed = parseExchangePlaintext(text({ key, timestamp: 1_700_000_000_000 }))
    expect(parsed?.key).toEqual(Buffer.alloc(32, 5))
    expect(parsed?.timestamp).toBe(1_700_000_000_000)
  })

  it.each([
    ['not JSON', new Uint8Array(Buffer.from('{key'))],
    ['null', text(null)],
    ['no timestamp', text({ key })],
    ['a text timestamp', text({ key, timestamp: '1700000000000' })],
    ['a short key', text({ key: Buffer.alloc(16).toString('base64'), timestamp: 1 })],
    ['a base64url key', text({ key: Buffer.alloc(32, 255).toString('base64url'), timestamp: 1 })],
  ])('refuses %s', (_name, plaintext) => {
    expect(parseExchangePlaintext(plaintext)).toBeUndefined()
  })

  it('is fresh within 60 s either way', () => {
    const now = 1_700_000_000_000
    expect(isFresh(now - 60_000, now)).toBe(true)
    expect(isFresh(now - 60_001, now)).toBe(false)
    expect(isFresh(now + 60_000, now)).toBe(true)
    expect(isFresh(now + 60_001, now)).toBe(false)
  })
})
