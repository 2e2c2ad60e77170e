import { describe, expect, it } from 'vitest'
import { ORDER_EVENT_CODES, ORDER_STATUSES } from '../../../contract/orders.ts'
import type { Rail } from './rules.ts'
import { stalledEvent, timelineEvent } from './timeline-rules.ts'

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
