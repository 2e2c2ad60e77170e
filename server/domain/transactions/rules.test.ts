import { describe, expect, it } from 'vitest'
import { CSV_COLUMNS, checkDateRange, csvFilename, csvHeader, currencyFilter } from './rules.ts'

describe('the wallet CSV', () => {
  it('the header is the column names, CRLF-ended', () => {
    expect(csvHeader()).toBe(`${CSV_COLUMNS.join(',')}\r\n`)
    expect(csvHeader()).toBe(
      'uuid,created_at,type,method,record_type,status,currency,chain,amount,address,tx_hash,confirmations,' +
        'activity_id,activity_type,counterparty_name,merchant,from_currency,to_currency,card_last4\r\n',
    )
  })

  it('the file is named after the wallet and the UTC date', () => {
    expect(
      csvFilename('0190f5a4-0000-7000-8000-000000000000', new Date('2025-03-01T23:59:59Z')),
    ).toBe('transactions-0190f5a4-0000-7000-8000-000000000000-2025-03-01.csv')
  })
})

describe('filters', () => {
  it.each([
    ['usdt', { code: 'USDT' }],
    [' Eur ', { code: 'EUR' }],
    ['B3115D89-344B-4D51-ABFA-76863EDDEC04', { uuid: 'b3115d89-344b-4d51-abfa-76863eddec04' }],
    ['b3115d89-344b-4d51-abfa-76863eddec04', { uuid: 'b3115d89-344b-4d51-abfa-76863eddec04' }],
  ])('currency %j reads as %j', (value, expected) => {
    expect(currencyFilter(value)).toEqual(expected)
  })

  it('a date range may be open or empty, never backwards', () => {
    expect(() => checkDateRange({})).not.toThrow()
    expect(() => checkDateRange({ from: '2025-01-02T00:00:00Z' })).not.toThrow()
    expect(() => checkDateRange({ to: '2025-01-02T00:00:00Z' })).not.toThrow()
    expect(() =>
      checkDateRange({ from: '2025-01-02T00:00:00Z', to: '2025-01-02T00:00:00Z' }),
    ).not.toThrow()
    expect(() =>
      checkDateRange({ from: '2025-01-02T00:00:00Z', to: '2025-01-02T01:00:00+02:00' }),
    ).toThrow('INVALID_DATE_RANGE')
  })
})
