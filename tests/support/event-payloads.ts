/**
 * Event payloads as the server writes them (server/domain/events/*-events.ts),
 * for the tables that hold what a notification says: the server's push and
 * bot text and the app's notification centre read the same payloads.
 */

export const CARD_PAYMENT = {
  card_id: 'c',
  transaction_id: 't',
  currency: 'EUR',
  merchant_name: 'Corner Café',
}

export const USDT_DEPOSIT = {
  wallet_id: 'w',
  transaction_id: 't',
  amount: '1250.500000',
  currency: 'USDT',
}

/** An order's outcome: 50 EUR with a 1 EUR fee unless `extra` says otherwise. */
export const orderOutcome = (type: string, extra: Record<string, unknown> = {}) => ({
  order_id: 'o',
  wallet_id: 'w',
  type,
  from_amount: '50.00',
  from_currency: 'EUR',
  to_amount: '50.00',
  to_currency: 'EUR',
  fee_amount: '1.00',
  total_amount: '51.00',
  counterparty_name: null,
  address: null,
  card_last4: null,
  ...extra,
})

/** 25 USDT (and a 0.1 fee) into BTC. */
export const EXCHANGE = orderOutcome('EXCHANGE_CRYPTO_INTERNAL', {
  from_amount: '25',
  from_currency: 'USDT',
  total_amount: '25.1',
  to_amount: '0.00025431',
  to_currency: 'BTC',
})

/** €200 onto the stand-alone card ·· 3044, and its 1 % fee. */
export const CARD_TOP_UP = orderOutcome('TRANSFER_CARD_PREPAID', {
  from_amount: '200.00',
  fee_amount: '2.00',
  total_amount: '202.00',
  to_amount: '200.00',
  card_last4: '3044',
})

/** 50 USDT the network refused to send to an Ethereum address. */
export const REFUSED_SEND = orderOutcome('WITHDRAWAL_CRYPTO', {
  from_currency: 'USDT',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  reason: 'ADDRESS_REJECTED',
})

/** A payment between people as its events carry it (issue 32; the ids are never shown). */
export const PERSON_TRANSFER = {
  transfer_id: 't',
  activity_id: 'a',
  wallet_id: 'w',
  amount: '20.00',
  currency: 'EUR',
}
