import { describe, expect, it } from 'vitest'
import {
  ORDER_EVENT_CODES,
  ORDER_STATUSES,
  ORDER_TYPES,
  type OrderStatus,
  type OrderTarget,
  type OrderType,
} from '../../../contract/orders.ts'
import { checkEntry } from '../ledger/rules.ts'
import { holdLegs, receiveLegs, releaseLegs, settleLegs } from './leg-rules.ts'
import { type OrderFacts, recordPlan } from './record-rules.ts'
import { formatReference, normalizeReference } from './reference-rules.ts'
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
import { stalledEvent, timelineEvent } from './timeline-rules.ts'

const target = (overrides: Partial<OrderTarget> = {}): OrderTarget => ({
  kind: 'address',
  wallet_uuid: null,
  counterparty_account_id: null,
  counterparty_destination_id: null,
  destination_type: null,
  fiat_account_id: null,
  chain: null,
  address: null,
  display: '',
  ...overrides,
})

const facts = (orderType: OrderType, overrides: Partial<OrderFacts> = {}): OrderFacts => ({
  orderType,
  target: target(),
  amountFrom: 10_000n,
  amountTo: 10_000n,
  total: 10_150n,
  fees: [
    { kind: 'FIXED', amount: 100n },
    { kind: 'PERCENT', amount: 50n },
  ],
  ...overrides,
})

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

describe('the timeline’s words', () => {
  const RELEASED = 'the held funds were released'

  it.each([
    ['bank_in', 'NEW', null, 'PLACED', 'Order placed'],
    ['bank_out', 'NEW', null, 'FUNDS_HELD', 'Order placed; the funds are held'],
    ['exchange', 'NEW', null, 'FUNDS_HELD', 'Order placed; the funds are held'],
    [
      'bank_in',
      'PENDING',
      null,
      'AWAITING_TRANSFER',
      'Awaiting your bank transfer with reference FP-28T5-CY4T',
    ],
    ['chain', 'PENDING', null, 'BROADCAST', 'Broadcast to the network'],
    ['bank_out', 'PENDING', null, 'SENT_TO_BANK', 'Sent to the bank'],
    ['bank_in', 'COMPLETE', null, 'TRANSFER_RECEIVED', 'Bank transfer received'],
    ['bank_out', 'COMPLETE', null, 'PAID_OUT', 'Paid out by the bank'],
    ['chain', 'COMPLETE', null, 'CONFIRMED_ON_CHAIN', 'Confirmed on chain'],
    ['wallet', 'COMPLETE', null, 'DELIVERED_TO_WALLET', 'Delivered to the wallet'],
    ['exchange', 'COMPLETE', null, 'EXCHANGED', 'Exchanged at the quoted rate'],
    ['fiat_account', 'COMPLETE', null, 'TOPPED_UP', 'Fiat account topped up'],
    [
      'bank_out',
      'FAILED',
      'ACCOUNT_CLOSED',
      'RETURNED_ACCOUNT_CLOSED',
      `Returned by the beneficiary’s bank: the account is closed; ${RELEASED}`,
    ],
    [
      'chain',
      'FAILED',
      'ADDRESS_REJECTED',
      'ADDRESS_REJECTED',
      `Address rejected by the network; ${RELEASED}`,
    ],
    [
      'fiat_account',
      'FAILED',
      'FIAT_ACCOUNT_INACTIVE',
      'FIAT_ACCOUNT_INACTIVE',
      `The fiat account does not accept top-ups; ${RELEASED}`,
    ],
    ['bank_out', 'FAILED', 'SOMETHING_NEW', 'REFUSED', `Refused; ${RELEASED}`],
    ['chain', 'FAILED', null, 'REFUSED', `Refused; ${RELEASED}`],
    [
      'bank_out',
      'ERROR',
      'PROCESSING_FAILED',
      'PROCESSING_FAILED',
      `Processing failed; ${RELEASED}`,
    ],
    ['exchange', 'CANCELED', null, 'CANCELED', `Canceled by you; ${RELEASED}`],
    // A deposit held nothing: nothing is released.
    ['bank_in', 'CANCELED', null, 'CANCELED', 'Canceled by you'],
  ] as const)(
    '%s reaching %s (failure %s) is %s: “%s”',
    (rail, status, failureCode, code, note) => {
      expect(timelineEvent(rail, status, { reference: 'FP-28T5-CY4T', failureCode })).toEqual({
        code,
        note,
      })
    },
  )

  it('a rail that stops answering: the bank’s or the network’s, the funds still held', () => {
    expect(stalledEvent('bank_out')).toEqual({
      code: 'BANK_NOT_ANSWERING',
      note: expect.stringMatching(/^The bank is not answering; .*funds stay held/),
    })
    expect(stalledEvent('chain')).toEqual({
      code: 'NETWORK_NOT_ANSWERING',
      note: expect.stringMatching(/^The network is not answering; .*funds stay held/),
    })
  })

  it('every code of the contract is said by some event, and one note never stands for two codes', () => {
    const rails: Rail[] = ['bank_in', 'bank_out', 'chain', 'wallet', 'exchange', 'fiat_account']
    const failures = [null, 'ACCOUNT_CLOSED', 'ADDRESS_REJECTED', 'FIAT_ACCOUNT_INACTIVE', 'X']
    const said = rails.flatMap((rail) => [
      stalledEvent(rail),
      ...ORDER_STATUSES.flatMap((status) =>
        failures.map((failureCode) =>
          timelineEvent(rail, status, { reference: 'FP-0000-0000', failureCode }),
        ),
      ),
    ])
    expect(new Set(said.map((event) => event.code))).toEqual(new Set(ORDER_EVENT_CODES))
    const codeOfNote = new Map<string, string>()
    for (const { code, note } of said) {
      expect(codeOfNote.get(note) ?? code, note).toBe(code)
      codeOfNote.set(note, code)
    }
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

describe('the records an order writes', () => {
  const lines = (order: OrderFacts) =>
    recordPlan(order).map((line) => [
      line.wallet,
      line.type,
      line.method,
      line.recordType,
      line.currency,
      line.amount,
      line.when,
    ])

  it('every order type has a plan whose payer lines sum to what leaves (or arrives in) the wallet', () => {
    for (const orderType of ORDER_TYPES) {
      const order = facts(orderType, {
        target: target({ wallet_uuid: orderType.startsWith('DEPOSIT') ? 'w' : null }),
      })
      const plan = recordPlan(order)
      const payer = plan.filter((line) => line.wallet === 'source')
      const signed = payer.reduce(
        (sum, line) => sum + (line.type === 'deposit' ? line.amount : -line.amount),
        0n,
      )
      // A withdrawal takes the total; a deposit brings the total, less the fees: to.amount.
      expect(signed).toBe(orderType.startsWith('DEPOSIT') ? order.amountTo : -order.total)
      expect(plan.every((line) => line.amount > 0n)).toBe(true)
    }
  })

  it.each([
    [
      'DEPOSIT_FIAT_SEPA',
      facts('DEPOSIT_FIAT_SEPA', { fees: [{ kind: 'FIXED', amount: 150n }] }),
      [
        ['source', 'deposit', 'bank_transfer', 'DEPOSIT', 'from', 10_150n, 'placed'],
        ['source', 'withdrawal', 'bank_transfer', 'FEE', 'from', 150n, 'placed'],
      ],
    ],
    [
      'WITHDRAWAL_FIAT_SEPA',
      facts('WITHDRAWAL_FIAT_SEPA'),
      [
        ['source', 'withdrawal', 'bank_transfer', 'WITHDRAWAL', 'from', 10_000n, 'placed'],
        ['source', 'withdrawal', 'bank_transfer', 'FEE', 'from', 100n, 'placed'],
        ['source', 'withdrawal', 'bank_transfer', 'FEE', 'from', 50n, 'placed'],
      ],
    ],
    [
      'WITHDRAWAL_CRYPTO to an address',
      facts('WITHDRAWAL_CRYPTO', {
        total: 10_070n,
        fees: [
          { kind: 'PERCENT', amount: 0n },
          { kind: 'NETWORK', amount: 70n },
        ],
      }),
      [
        ['source', 'withdrawal', 'crypto', 'WITHDRAWAL_CRYPTO_EXTERNAL', 'from', 10_000n, 'placed'],
        ['source', 'withdrawal', 'crypto', 'NETWORK_FEE', 'from', 70n, 'placed'],
      ],
    ],
    [
      'WITHDRAWAL_CRYPTO to a wallet',
      facts('WITHDRAWAL_CRYPTO', {
        target: target({ wallet_uuid: 'w2' }),
        total: 10_000n,
        fees: [],
      }),
      [
        ['source', 'withdrawal', 'crypto', 'WITHDRAWAL_CRYPTO_INTERNAL', 'from', 10_000n, 'placed'],
        ['target', 'deposit', 'crypto', 'DEPOSIT_CRYPTO_INTERNAL', 'to', 10_000n, 'completed'],
      ],
    ],
    [
      'EXCHANGE_CRYPTO_INTERNAL',
      facts('EXCHANGE_CRYPTO_INTERNAL', {
        amountTo: 920n,
        total: 10_010n,
        fees: [{ kind: 'PERCENT', amount: 10n }],
      }),
      [
        ['source', 'withdrawal', 'exchange', 'EXCHANGE_CRYPTO_INTERNAL', 'from', 10_000n, 'placed'],
        ['source', 'withdrawal', 'exchange', 'FEE', 'from', 10n, 'placed'],
        ['target', 'deposit', 'exchange', 'EXCHANGE_CRYPTO_INTERNAL', 'to', 920n, 'placed'],
      ],
    ],
    [
      'TRANSFER_CARD_PREPAID',
      facts('TRANSFER_CARD_PREPAID', { total: 10_100n, fees: [{ kind: 'PERCENT', amount: 100n }] }),
      [
        ['source', 'withdrawal', 'p2p', 'CARD_PROVIDER_DEPOSIT', 'from', 10_000n, 'placed'],
        ['source', 'withdrawal', 'p2p', 'FEE', 'from', 100n, 'placed'],
      ],
    ],
    [
      'TRANSFER_CARD_WHOLESALE',
      facts('TRANSFER_CARD_WHOLESALE', { amountTo: 9_200n, total: 10_000n, fees: [] }),
      [['source', 'withdrawal', 'exchange', 'WHOLESALE_CARD_DEPOSIT', 'from', 10_000n, 'placed']],
    ],
  ] as const)('%s', (_name, order, expected) => {
    expect(lines(order)).toEqual(expected)
  })

  it('a chain withdrawal names its address on the main line', () => {
    const plan = recordPlan(
      facts('WITHDRAWAL_CRYPTO', { target: target({ chain: 'tron', address: 'TAddr' }) }),
    )
    expect(plan.map((line) => line.address)).toEqual(['TAddr', null, null])
  })
})

describe('the ledger legs of each step', () => {
  const wallet = { user_wallet: 'uw', held: 'h' }

  it('hold and release are each other’s mirror', () => {
    expect(holdLegs(wallet, 'EUR', 5n)).toEqual([
      { account: 'uw', currency: 'EUR', amount: -5n },
      { account: 'h', currency: 'EUR', amount: 5n },
    ])
    expect(releaseLegs(wallet, 'EUR', 5n)).toEqual([
      { account: 'h', currency: 'EUR', amount: -5n },
      { account: 'uw', currency: 'EUR', amount: 5n },
    ])
  })

  it('a settlement empties exactly the held total, per currency balanced', () => {
    const order = facts('WITHDRAWAL_FIAT_SEPA')
    const legs = settleLegs({ held: 'h', fees: 'f', destination: 'x' }, 'EUR', 'EUR', order)
    expect(checkEntry(legs)).toBeUndefined()
    expect(
      legs.filter((leg) => leg.account === 'h').reduce((sum, leg) => sum + leg.amount, 0n),
    ).toBe(-order.total)
    expect(
      legs.filter((leg) => leg.account === 'f').reduce((sum, leg) => sum + leg.amount, 0n),
    ).toBe(150n)
    expect(legs.find((leg) => leg.account === 'x')?.amount).toBe(10_000n)
  })

  it('a conversion goes through the treasury in both currencies', () => {
    const order = facts('EXCHANGE_CRYPTO_INTERNAL', {
      amountTo: 920n,
      total: 10_010n,
      fees: [{ kind: 'PERCENT', amount: 10n }],
    })
    const legs = settleLegs(
      { held: 'h', fees: 'f', destination: 'tw', treasury: 't' },
      'USDT',
      'EUR',
      order,
    )
    expect(checkEntry(legs)).toBeUndefined()
    expect(legs).toEqual([
      { account: 'h', currency: 'USDT', amount: -10_000n },
      { account: 't', currency: 'USDT', amount: 10_000n },
      { account: 't', currency: 'EUR', amount: -920n },
      { account: 'tw', currency: 'EUR', amount: 920n },
      { account: 'h', currency: 'USDT', amount: -10n },
      { account: 'f', currency: 'USDT', amount: 10n },
    ])
    expect(() =>
      settleLegs({ held: 'h', fees: 'f', destination: 'tw' }, 'USDT', 'EUR', order),
    ).toThrow()
  })

  it('a deposit’s transfer brings to.amount and the fees from outside; zero fees write no leg', () => {
    const legs = receiveLegs({ external: 'e', user_wallet: 'uw', fees: 'f' }, 'USD', {
      amountTo: 100_000n,
      fees: [
        { kind: 'FIXED', amount: 1_000n },
        { kind: 'PERCENT', amount: 0n },
      ],
    })
    expect(checkEntry(legs)).toBeUndefined()
    expect(legs).toEqual([
      { account: 'e', currency: 'USD', amount: -100_000n },
      { account: 'uw', currency: 'USD', amount: 100_000n },
      { account: 'e', currency: 'USD', amount: -1_000n },
      { account: 'f', currency: 'USD', amount: 1_000n },
    ])
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

describe('deposit references', () => {
  it('are FP- and eight Crockford base32 characters from 40 random bits', () => {
    expect(formatReference(new Uint8Array([0, 0, 0, 0, 0]))).toBe('FP-0000-0000')
    expect(formatReference(new Uint8Array([255, 255, 255, 255, 255]))).toBe('FP-ZZZZ-ZZZZ')
    expect(formatReference(new Uint8Array([0x12, 0x34, 0x56, 0x78, 0x9a]))).toBe('FP-28T5-CY4T')
    expect(() => formatReference(new Uint8Array(4))).toThrow()
  })

  it.each([
    ['FP-28T5-CY4T', 'FP-28T5-CY4T'],
    ['fp 28t5 cy4t', 'FP-28T5-CY4T'],
    ['28T5CY4T', 'FP-28T5-CY4T'],
    // Crockford reads I and L as 1, O as 0: a reference retyped from paper still matches.
    ['FP-OOOO-IL11', 'FP-0000-1111'],
    ['FP-28T5-CY4', undefined],
    ['FP-28T5-CY4U', undefined],
    ['hello', undefined],
  ])('%s reads as %s', (typed, reference) => {
    expect(normalizeReference(typed)).toBe(reference)
  })
})
