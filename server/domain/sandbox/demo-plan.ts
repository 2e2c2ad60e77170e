import type { Merchant, PROCESSOR_MESSAGE_TYPES } from '../../../contract/card-transactions.ts'
import type { ChainId } from '../../../contract/catalog.ts'
import type {
  CreateCounterpartyBody,
  CreateDestinationBody,
} from '../../../contract/counterparties.ts'
import type { WalletType } from '../../../contract/wallets.ts'
import type { DefaultProgramKey } from '../issuing/default-programs.ts'
import type { DemoWhen } from './demo-time.ts'

/*
 * What the sandbox demo is, as data: who Mia Wagner is, and what happened to
 * her money on which day of her five weeks. demo-runner.ts plays each step
 * through the use cases the routes call, with the step's time as their clock.
 */

export const DEMO_EMAIL = 'demo@finplatform.local'

/**
 * Who the demo user is: the verified identity has a name, a date of birth and
 * an address, and the physical card is delivered to that name and address.
 */
export const DEMO_PERSON = {
  first_name: 'Mia',
  last_name: 'Wagner',
  date_of_birth: '1991-04-17',
  address: {
    country: 'DE',
    city: 'Berlin',
    line1: 'Unter den Linden 77',
    postal_code: '10117',
  },
} as const

/** A currency of the catalogue by its code, on its chain (none for fiat). */
export interface DemoCurrency {
  code: string
  chain: ChainId | null
}

/** A coin or token: a currency on a chain. */
export type Coin = DemoCurrency & { chain: ChainId }

/** The demo's fiat: every program it uses, its bank deposit and payments are in euros. */
export const EUR: DemoCurrency = { code: 'EUR', chain: null }

/** Someone the demo user pays, with the rails they can be paid on (each under a key). */
export interface DemoCounterparty {
  key: string
  /** What the list is searched by to find it again. */
  name: string
  body: CreateCounterpartyBody
  destinations: (CreateDestinationBody & { key: string })[]
}

/** A person the demo user pays by SEPA… */
const ANNA: DemoCounterparty = {
  key: 'anna-schmidt',
  name: 'Anna Schmidt',
  body: {
    type: 'INDIVIDUAL',
    first_name: 'Anna',
    last_name: 'Schmidt',
    email: 'anna.schmidt@example.com',
    phone: '+4915123456789',
    country: 'DE',
    address: { country: 'DE', city: 'Berlin', line1: 'Friedrichstraße 68', postal_code: '10117' },
  },
  // A sandbox bank IBAN that does not end in 0000 or 9999: its payouts settle.
  destinations: [
    {
      key: 'sepa',
      type: 'SEPA',
      label: 'Commerzbank',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      bank_name: 'Commerzbank',
    },
  ],
}

/** …and a business, by SWIFT and on chain. */
const NORTHWIND: DemoCounterparty = {
  key: 'northwind-traders',
  name: 'Northwind Traders Ltd',
  body: {
    type: 'BUSINESS',
    legal_name: 'Northwind Traders Ltd',
    email: 'payments@northwind.example',
    country: 'GB',
    address: { country: 'GB', city: 'London', line1: '1 Canada Square', postal_code: 'E14 5AB' },
  },
  destinations: [
    {
      key: 'swift',
      type: 'SWIFT',
      label: 'Barclays GBP',
      iban: 'GB33BUKB20201555555555',
      bic: 'BUKBGB22',
      bank_name: 'Barclays Bank',
      bank_country: 'GB',
    },
    {
      key: 'crypto',
      type: 'CRYPTO_EXTERNAL',
      label: 'Treasury (Ethereum)',
      chain: 'ethereum',
      address: '0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe',
    },
  ],
}

/** Who the EUR deposit comes from (the demo user's own account elsewhere). */
const OWN_BANK = { name: 'Mia Wagner', iban: 'DE02100100109307118603' }

const CAFE: Merchant = { name: 'Café Einstein', mcc: '5814', city: 'Berlin', country: 'DE' }
const PARKING: Merchant = { name: 'City Parking', mcc: '7523', city: 'Berlin', country: 'DE' }
const BOOKSHOP: Merchant = { name: 'Dussmann Bookshop', mcc: '5942', city: 'Berlin', country: 'DE' }
const STREAMING: Merchant = {
  name: 'Streaming Plus',
  mcc: '4899',
  city: 'Amsterdam',
  country: 'NL',
}

/** The demo's two cards, by the name on them. */
export const DEMO_CARDS = {
  /** Stand-alone, on a prepaid account of its own that is never topped up: it declines. */
  virtual: { nickName: 'Online shopping', program: 'eur-prepaid' },
  /** On the EUR balance account: ordered, shipped, delivered and activated. */
  physical: { nickName: 'Everyday', program: 'eur-balance' },
} as const satisfies Record<string, { nickName: string; program: DefaultProgramKey }>
export type DemoCard = keyof typeof DEMO_CARDS

/** A follow-up of an authorisation, as the card network sends it. */
export type DemoFollowUp = Exclude<(typeof PROCESSOR_MESSAGE_TYPES)[number], 'AUTHORIZATION'>

/**
 * One thing that happened. `key` names what the step makes, so a later step
 * can refer to it and a second run finds it instead of making it again.
 */
export type DemoEvent =
  | { kind: 'join' }
  | { kind: 'verify' }
  | { kind: 'wallet'; wallet: WalletType; chains: ChainId[] }
  | { kind: 'crypto-deposit'; key: string; wallet: WalletType; currency: Coin; amount: string }
  /** A DEPOSIT_FIAT_SEPA order into the personal wallet: its instructions are given… */
  | { kind: 'bank-deposit'; key: string; amount: string }
  /** …and the transfer carrying its reference arrives. */
  | { kind: 'bank-transfer'; deposit: string; sender: { name: string; iban: string } }
  | { kind: 'counterparty'; counterparty: DemoCounterparty }
  /** WITHDRAWAL_FIAT_SEPA (a fiat destination) or WITHDRAWAL_CRYPTO (a chain address). */
  | {
      kind: 'payment'
      key: string
      to: string
      currency: DemoCurrency
      amount: string
      note: string
    }
  | { kind: 'exchange'; key: string; wallet: WalletType; from: Coin; to: Coin; amount: string }
  | { kind: 'fiat-account'; program: DefaultProgramKey }
  /** A TRANSFER_CARD_* order from the personal wallet into the program's account. */
  | { kind: 'top-up'; key: string; program: DefaultProgramKey; amount: string }
  | { kind: 'card'; card: DemoCard }
  /** The courier moves the physical card one step (ordered → shipped → delivered). */
  | { kind: 'courier' }
  | { kind: 'card-activated' }
  /** The card network asks to authorise a purchase… */
  | { kind: 'card-purchase'; key: string; card: DemoCard; amount: string; merchant: Merchant }
  /** …and follows it up (its key: `<purchase>:<type>`). */
  | { kind: 'card-follow-up'; of: string; type: DemoFollowUp; amount: string }
  /** A SEPA credit to the program's account's own IBAN. */
  | {
      kind: 'account-credit'
      key: string
      program: DefaultProgramKey
      amount: string
      sender: { name: string; iban: string }
      remittance: string
    }

export type DemoStep = DemoEvent & { when: DemoWhen }

/** A step on a day before today (`daysAgo`), at a time of that day (the server's time zone). */
const at = (daysAgo: number, time: string, event: DemoEvent): DemoStep => ({
  ...event,
  when: { daysAgo, time },
})
/** A step today, `minutesAgo` before the seed runs (never before midnight). */
const today = (minutesAgo: number, event: DemoEvent): DemoStep => ({
  ...event,
  when: { minutesAgo },
})

const BTC: Coin = { code: 'BTC', chain: 'bitcoin' }
const ETH: Coin = { code: 'ETH', chain: 'ethereum' }
const USDT: Coin = { code: 'USDT', chain: 'tron' }
const USDC: Coin = { code: 'USDC', chain: 'solana' }

const crypto = (key: string, wallet: WalletType, currency: Coin, amount: string): DemoEvent => ({
  kind: 'crypto-deposit',
  key,
  wallet,
  currency,
  amount,
})
const purchase = (key: string, card: DemoCard, amount: string, merchant: Merchant): DemoEvent => ({
  kind: 'card-purchase',
  key,
  card,
  amount,
  merchant,
})
const followUp = (of: string, type: DemoFollowUp, amount: string): DemoEvent => ({
  kind: 'card-follow-up',
  of,
  type,
  amount,
})
const pay = (key: string, to: string, currency: DemoCurrency, amount: string, note: string) =>
  ({ kind: 'payment', key, to, currency, amount, note }) satisfies DemoEvent
const exchange = (key: string, wallet: WalletType, from: Coin, to: Coin, amount: string) =>
  ({ kind: 'exchange', key, wallet, from, to, amount }) satisfies DemoEvent
const topUp = (key: string, program: DefaultProgramKey, amount: string) =>
  ({ kind: 'top-up', key, program, amount }) satisfies DemoEvent

/**
 * The five weeks, oldest first (the order they are played in). Today's and
 * yesterday's steps give home its "Today" and "Yesterday".
 */
export const DEMO_TIMELINE: readonly DemoStep[] = [
  at(38, '10:04', { kind: 'join' }),
  at(38, '10:11', { kind: 'verify' }),
  at(37, '09:30', { kind: 'wallet', wallet: 'personal', chains: ['bitcoin', 'ethereum', 'tron'] }),
  at(37, '09:32', { kind: 'wallet', wallet: 'trading', chains: ['tron', 'solana'] }),
  at(36, '18:20', crypto('btc', 'personal', BTC, '0.0125')),
  at(34, '11:05', crypto('eth', 'personal', ETH, '0.85')),
  at(33, '14:40', crypto('usdt', 'personal', USDT, '1250.00')),
  at(31, '09:15', { kind: 'bank-deposit', key: 'eur', amount: '2500.00' }),
  at(30, '15:02', { kind: 'bank-transfer', deposit: 'eur', sender: OWN_BANK }),
  at(30, '16:30', { kind: 'counterparty', counterparty: ANNA }),
  at(29, '10:03', pay('concert', 'anna-schmidt:sepa', EUR, '120.00', 'Concert tickets')),
  at(28, '16:45', { kind: 'fiat-account', program: 'eur-prepaid' }),
  at(28, '16:47', topUp('prepaid', 'eur-prepaid', '200.00')),
  at(28, '16:50', { kind: 'fiat-account', program: 'eur-balance' }),
  at(27, '09:10', topUp('balance', 'eur-balance', '350.00')),
  at(26, '12:00', { kind: 'card', card: 'virtual' }),
  at(26, '12:05', { kind: 'card', card: 'physical' }),
  at(25, '08:40', { kind: 'courier' }),
  at(24, '14:30', crypto('trading-usdt', 'trading', USDT, '500')),
  at(23, '11:40', { kind: 'courier' }),
  at(23, '19:05', { kind: 'card-activated' }),
  at(21, '08:15', purchase('cafe', 'physical', '42.90', CAFE)),
  at(20, '06:00', followUp('cafe', 'CLEARING', '42.90')),
  at(19, '13:20', exchange('usdt-btc', 'trading', USDT, BTC, '150.00')),
  at(16, '17:45', crypto('usdc', 'trading', USDC, '320.50')),
  at(14, '18:10', purchase('parking', 'physical', '18.00', PARKING)),
  at(14, '18:40', followUp('parking', 'REVERSAL', '18.00')),
  at(12, '10:30', {
    kind: 'account-credit',
    key: 'hotel',
    program: 'eur-balance',
    amount: '150.00',
    sender: { name: 'Lukas Becker', iban: 'DE75512108001245126199' },
    remittance: 'Half of the hotel',
  }),
  at(10, '15:00', { kind: 'counterparty', counterparty: NORTHWIND }),
  at(9, '11:20', pay('invoice', 'northwind-traders:crypto', ETH, '0.05', 'Invoice NW-2291')),
  at(7, '16:05', purchase('books', 'physical', '64.00', BOOKSHOP)),
  at(6, '04:00', followUp('books', 'CLEARING', '64.00')),
  at(5, '09:40', exchange('eth-usdt', 'personal', ETH, USDT, '0.1')),
  at(3, '11:15', followUp('books', 'REFUND', '24.00')),
  at(2, '20:10', pay('dinner', 'anna-schmidt:sepa', EUR, '35.00', 'Dinner at Lokal')),
  at(1, '12:30', topUp('prepaid-2', 'eur-prepaid', '50.00')),
  // Authorised last night and not cleared yet: pending, as a real card's payment is for a day.
  at(1, '19:45', purchase('coffee', 'physical', '8.60', CAFE)),
  // On the virtual card's own account, never topped up: declined.
  today(40, purchase('streaming', 'virtual', '12.99', STREAMING)),
]
