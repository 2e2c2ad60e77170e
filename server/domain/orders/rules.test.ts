import { describe, expect, it } from 'vitest'
import { ORDER_STATUSES, type OrderStatus } from '../../../contract/orders.ts'
import { target } from './order-facts-fixtures.ts'
import {
  canMove,
  idempotencyKey,
  isCancelable,
  type PayableDestination,
  payeeOf,
  type Rail,
  railOf,
  recordStatus,
  releasesHold,
  requestHash,
  samePayee,
  settlesInPlacement,
} from './rules.ts'

describe('which rail carries an order', () => {
  it.each([
    ['DEPOSIT_FIAT_SEPA', target({ kind: 'bank_deposit', wallet_uuid: 'w' }), 'bank_in'],
    ['DEPOSIT_FIAT_SWIFT', target({ kind: 'bank_deposit', wallet_uuid: 'w' }), 'bank_in'],
    ['WITHDRAWAL_FIAT_SEPA', target({ kind: 'counterparty' }), 'bank_out'],
    ['WITHDRAWAL_CRYPTO', target({ kind: 'address', address: 'T…' }), 'chain'],
    ['WITHDRAWAL_CRYPTO', target({ kind: 'counterparty', address: 'T…' }), 'chain'],
    ['WITHDRAWAL_CRYPTO', target({ kind: 'counterparty', wallet_uuid: 'w' }), 'wallet'],
    ['WITHDRAWAL_CRYPTO', target({ kind: 'wallet', wallet_uuid: 'w' }), 'wallet'],
    ['EXCHANGE_CRYPTO_INTERNAL', target({ kind: 'wallet', wallet_uuid: 'w' }), 'exchange'],
    ['TRANSFER_CARD_PREPAID', target({ kind: 'fiat_account' }), 'fiat_account'],
    ['TRANSFER_CARD_SUBACCOUNT', target({ kind: 'fiat_account' }), 'fiat_account'],
    ['TRANSFER_CARD_WHOLESALE', target({ kind: 'fiat_account' }), 'fiat_account'],
  ] as const)('%s to %o goes by %s', (orderType, to, rail) => {
    expect(railOf(orderType, to)).toBe(rail)
  })

  it.each([
    ['exchange', true],
    ['wallet', false],
    ['fiat_account', false],
    ['bank_in', false],
    ['bank_out', false],
    ['chain', false],
  ] as const)('an order by %s settles as it is placed: %s', (rail, settles) => {
    expect(settlesInPlacement(rail)).toBe(settles)
  })
})

describe('the status machine', () => {
  const external: Rail[] = ['bank_out', 'chain']
  const internal: Rail[] = ['wallet', 'exchange', 'fiat_account']

  it('final statuses never move', () => {
    for (const rail of [...external, ...internal, 'bank_in'] as Rail[]) {
      for (const from of ['CANCELED', 'COMPLETE', 'ERROR', 'FAILED'] as OrderStatus[]) {
        for (const to of ORDER_STATUSES) {
          for (const handedOff of [false, true]) {
            expect(canMove(rail, from, to, handedOff)).toBe(false)
          }
        }
      }
    }
  })

  it.each([
    // An external rail: handed off, then its outcome.
    ['bank_out', 'NEW', 'PENDING', true, true],
    ['bank_out', 'NEW', 'COMPLETE', true, false],
    ['chain', 'NEW', 'FAILED', true, true],
    ['chain', 'PENDING', 'COMPLETE', true, true],
    ['chain', 'PENDING', 'FAILED', true, true],
    ['bank_out', 'PENDING', 'CANCELED', true, false],
    ['bank_out', 'PENDING', 'NEW', true, false],
    // Internal moves complete in one step and never wait.
    ['exchange', 'NEW', 'COMPLETE', false, true],
    ['exchange', 'NEW', 'PENDING', false, false],
    ['fiat_account', 'NEW', 'FAILED', false, true],
    // A deposit waits for its transfer, and may be cancelled while it does.
    ['bank_in', 'NEW', 'PENDING', false, true],
    ['bank_in', 'PENDING', 'COMPLETE', false, true],
    ['bank_in', 'PENDING', 'CANCELED', false, true],
    ['bank_in', 'PENDING', 'FAILED', false, false],
    // Giving up, and cancelling, only while the rail has never had the order.
    ['bank_out', 'NEW', 'ERROR', false, true],
    ['exchange', 'NEW', 'ERROR', false, true],
    ['exchange', 'NEW', 'CANCELED', false, true],
    ['exchange', 'NEW', 'NEW', false, false],
    // Handed off (the bank or chain may have paid it): only the rail's answer ends it.
    ['bank_out', 'NEW', 'ERROR', true, false],
    ['bank_out', 'NEW', 'CANCELED', true, false],
    ['bank_out', 'PENDING', 'ERROR', true, false],
    ['chain', 'PENDING', 'ERROR', true, false],
    ['chain', 'NEW', 'CANCELED', true, false],
  ] as const)('%s: %s → %s (handed off: %s) is %s', (rail, from, to, handedOff, allowed) => {
    expect(canMove(rail, from, to, handedOff)).toBe(allowed)
  })

  it.each([
    [{ rail: 'exchange', status: 'NEW', handedOff: false, transferReceived: false }, true],
    [{ rail: 'bank_out', status: 'NEW', handedOff: false, transferReceived: false }, true],
    // The job has called the bank: it may have the payout.
    [{ rail: 'bank_out', status: 'NEW', handedOff: true, transferReceived: false }, false],
    [{ rail: 'bank_out', status: 'PENDING', handedOff: true, transferReceived: false }, false],
    [{ rail: 'bank_in', status: 'PENDING', handedOff: false, transferReceived: false }, true],
    [{ rail: 'bank_in', status: 'PENDING', handedOff: false, transferReceived: true }, false],
    [{ rail: 'exchange', status: 'COMPLETE', handedOff: false, transferReceived: false }, false],
  ] as const)('cancelable %o: %s', (order, expected) => {
    expect(isCancelable(order)).toBe(expected)
  })

  it('records follow the order; only orders that held something release it', () => {
    expect(ORDER_STATUSES.map(recordStatus)).toEqual([
      'new',
      'pending',
      'canceled',
      'complete',
      'failed',
      'failed',
    ])
    expect(releasesHold('bank_out', 'FAILED')).toBe(true)
    expect(releasesHold('exchange', 'CANCELED')).toBe(true)
    expect(releasesHold('chain', 'ERROR')).toBe(true)
    expect(releasesHold('chain', 'COMPLETE')).toBe(false)
    expect(releasesHold('bank_in', 'CANCELED')).toBe(false)
  })
})

describe('what a payout pays, as quoted', () => {
  const destination = (overrides: Partial<PayableDestination>): PayableDestination => ({
    type: 'SEPA',
    iban: 'DE89370400440532013000',
    bic: 'COBADEFFXXX',
    chain: null,
    address: null,
    wallet_uuid: null,
    counterparty_name: 'Anna Schmidt',
    ...overrides,
  })

  it('a SEPA destination pays its IBAN and BIC in the counterparty’s name; crypto ones their address or wallet', () => {
    expect(payeeOf(destination({}))).toEqual({
      kind: 'bank_account',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      beneficiary: 'Anna Schmidt',
    })
    const address = 'TJWRYthBCHjEcbng9wz7kB8Twg5Lo5oCUh'
    expect(payeeOf(destination({ type: 'CRYPTO_EXTERNAL', chain: 'tron', address }))).toEqual({
      kind: 'chain_address',
      chain: 'tron',
      address,
    })
    const wallet = '0190f5a4-0000-7000-8000-000000000001'
    expect(payeeOf(destination({ type: 'CRYPTO_INTERNAL', wallet_uuid: wallet }))).toEqual({
      kind: 'wallet',
      wallet_uuid: wallet,
    })
    expect(payeeOf(destination({ type: 'SWIFT' }))).toBeUndefined()
  })

  it.each([
    ['the IBAN', { iban: 'GB82WEST12345698765432' }],
    ['the BIC', { bic: 'DEUTDEFFXXX' }],
    ['the BIC cleared', { bic: null }],
    ['the counterparty’s name', { counterparty_name: 'Anna Schmidt-Weber' }],
  ] as const)('an edit of %s is a different payee', (_, edit) => {
    expect(samePayee(payeeOf(destination({})), payeeOf(destination(edit)))).toBe(false)
  })

  it('the same fields are the same payee, whatever order jsonb gave the keys back in', () => {
    const quoted = payeeOf(destination({}))!
    const reordered = JSON.parse(
      JSON.stringify(Object.fromEntries(Object.entries(quoted).reverse())),
    )
    expect(samePayee(reordered, payeeOf(destination({ type: 'SEPA' })))).toBe(true)
    expect(samePayee(null, undefined)).toBe(true)
    expect(samePayee(null, quoted)).toBe(false)
  })
})

describe('idempotency keys and request hashes', () => {
  const quoteId = '0190F5A4-0000-7000-8000-000000000001'

  it('the key is request_id, else the header, else the quote', () => {
    expect(idempotencyKey({ requestId: 'r', header: 'h', quoteId })).toBe('r')
    expect(idempotencyKey({ header: 'h', quoteId })).toBe('h')
    expect(idempotencyKey({ quoteId })).toBe('quote:0190f5a4-0000-7000-8000-000000000001')
  })

  it('the hash tells requests apart by type, quote and note, and ignores letter case of the quote', () => {
    const base = { orderType: 'EXCHANGE_CRYPTO_INTERNAL' as const, quoteId, note: undefined }
    const hash = requestHash(base)
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(requestHash({ ...base, quoteId: quoteId.toLowerCase() })).toBe(hash)
    expect(requestHash({ ...base, note: null })).toBe(hash)
    expect(requestHash({ ...base, note: '' })).not.toBe(hash)
    expect(requestHash({ ...base, note: 'rent' })).not.toBe(hash)
    expect(requestHash({ ...base, orderType: 'WITHDRAWAL_CRYPTO' })).not.toBe(hash)
  })
})
