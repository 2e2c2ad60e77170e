import type { FastifyInstance } from 'fastify'
import { isValidIBAN } from 'ibantools'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ActivityPage } from '../../../contract/activity.ts'
import type { CardTransactionList } from '../../../contract/card-transactions.ts'
import type { CardList } from '../../../contract/cards.ts'
import type { CounterpartyList, DestinationList } from '../../../contract/counterparties.ts'
import type { FiatAccountList } from '../../../contract/fiat-accounts.ts'
import { fromMinor, toMinor } from '../../../contract/money.ts'
import type { OrderList } from '../../../contract/orders.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { WalletList } from '../../../contract/wallets.ts'
import { startBanner } from '../../banner.ts'
import { DEFAULT_DEMO_PASSWORD } from '../../config.ts'
import { createTestApp, describeServer } from '../../test-support.ts'
import { defaultProgramId } from '../issuing/default-programs.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { DEMO_EMAIL, DEMO_PERSON } from './demo-seed.ts'
import { demoConfig, demoReader, KEY } from './demo-test-support.ts'

type Reader = Awaited<ReturnType<typeof demoReader>>['v1']

/*
 * What the sandbox demo holds, as Mia Wagner reads it through the API: the
 * README's promise (wallets with deposit addresses and settled deposits,
 * euros, a prepaid and a balance card account, two cards with purchases, a
 * refund and a decline, two counterparties, a verified identity).
 */

describeServer('the sandbox demo', () => {
  let app: FastifyInstance
  let v1: Reader
  let v2: Reader
  beforeAll(async () => {
    app = await createTestApp({ DEMO_SEED: 'true', ADDRESS_SEED_KEY: KEY })
    ;({ v1, v2 } = await demoReader(app))
  })
  afterAll(() => app?.close())

  /** The demo's order placed under a step's key. */
  const orderOf = async (key: string) => {
    const orders = await v1<OrderList>('/orders?limit=100')
    const order = orders.data.find((o) => o.request_id === `demo-seed:${key}`)
    if (!order) throw new Error(`no demo order ${key}`)
    return order
  }
  const plus = (a: string, b: string, decimals: number) =>
    fromMinor(toMinor(a, decimals) + toMinor(b, decimals), decimals)
  const minus = (a: string, b: string, decimals: number) =>
    fromMinor(toMinor(a, decimals) - toMinor(b, decimals), decimals)

  it('the start banner prints the demo sign-in, which works, and shows two wallets with what their history left', async () => {
    expect(startBanner(demoConfig(), 8080)).toContain(
      `Demo sign-in  ${DEMO_EMAIL} / ${DEFAULT_DEMO_PASSWORD}`,
    )
    const [personal, trading] = (await v2<WalletList>('/wallets')).data
    expect([personal?.type, trading?.type]).toEqual(['personal', 'trading'])
    const ethToUsdt = await orderOf('eth-usdt')
    const invoice = await orderOf('invoice')
    const usdtToBtc = await orderOf('usdt-btc')
    expect(
      personal!.balances.map((b) => `${b.currency}/${b.chain} ${b.available} ${b.pending}`),
    ).toEqual([
      'BTC/bitcoin 0.01250000 0.00000000',
      // 0.85 in, an exchange and a payment to Northwind's treasury (with its network fee) out.
      `ETH/ethereum ${minus(minus('0.85', ethToUsdt.total, 18), invoice.total, 18)} 0.000000000000000000`,
      `USDT/tron ${plus('1250', ethToUsdt.to.amount, 6)} 0.000000`,
      // 2500.00 in; to Anna 120.00 and 35.00 (1.00 fee each); top-ups 202.00, 350.00 and 50.50.
      'EUR/null 1740.50 0.00',
    ])
    expect(trading!.balances.map((b) => `${b.currency}/${b.chain} ${b.available}`)).toEqual([
      `BTC/bitcoin ${usdtToBtc.to.amount}`,
      'USDT/tron 349.850000',
      'USDC/solana 320.500000',
    ])
    await expectLedgerInvariants(app)
  })

  it('the personal wallet has a prepaid and a balance account with money, and the virtual card an empty one of its own', async () => {
    const personal = (await v2<WalletList>('/wallets')).data[0]!
    const accounts = await v2<FiatAccountList>(`/fiat-accounts/${personal.uuid}`)
    expect(
      accounts.data.map((a) => `${a.program_id} ${a.sub_account_type} ${a.currency} ${a.balance}`),
    ).toEqual([
      // Topped up 200.00 and 50.00.
      `${defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid')} prepaid EUR 250.00`,
      // 350.00 and a SEPA credit of 150.00 in; the card's issue fee (5.00), 42.90 and 64.00
      // spent, 24.00 refunded, 8.60 authorised last night and still held.
      `${defaultProgramId(DEMO_TENANT_ID, 'eur-balance')} balance EUR 403.50`,
      `${defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid')} prepaid EUR 0.00`,
    ])
    expect(accounts.data.every((a) => a.bank_details && isValidIBAN(a.bank_details.iban))).toBe(
      true,
    )
  })

  it('the demo user has a stand-alone virtual card and a delivered, active physical one, with purchases, a refund and a decline', async () => {
    const cards = await v1<CardList>('/issuing/cards')
    expect(
      cards.data.map((c) => [
        c.nick_name,
        c.form_factor,
        c.status,
        c.stand_alone,
        c.delivery?.status,
      ]),
    ).toEqual([
      ['Online shopping', 'VIRTUAL', 'ACTIVE', true, undefined],
      ['Everyday', 'PHYSICAL', 'ACTIVE', false, 'DELIVERED'],
    ])
    const [virtual, physical] = cards.data
    expect(physical!.delivery?.address).toMatchObject({
      recipient_name: `${DEMO_PERSON.first_name} ${DEMO_PERSON.last_name}`,
      city: 'Berlin',
      country: 'DE',
    })
    const of = async (query: string) =>
      (await v1<CardTransactionList>(`/issuing/transactions/?limit=100&${query}`)).data
        .map((t) => `${t.type} ${t.status} ${t.amount}${t.merchant ? ` ${t.merchant.name}` : ''}`)
        .reverse()
    expect(await of(`card_id=${physical!.id}`)).toEqual([
      'FEE SETTLED 5.00',
      'AUTHORIZATION SETTLED 42.90 Café Einstein',
      'CLEARING SETTLED 42.90 Café Einstein',
      'AUTHORIZATION REVERSED 18.00 City Parking',
      'REVERSAL SETTLED 18.00 City Parking',
      'AUTHORIZATION SETTLED 64.00 Dussmann Bookshop',
      'CLEARING SETTLED 64.00 Dussmann Bookshop',
      'REFUND SETTLED 24.00 Dussmann Bookshop',
      'AUTHORIZATION APPROVED 8.60 Café Einstein',
    ])
    expect(await of(`card_id=${virtual!.id}`)).toEqual([
      'AUTHORIZATION DECLINED 12.99 Streaming Plus',
    ])
    // The account's own records too: the top-up order's deposit and the SEPA credit.
    const account = await of(`fiat_account_id=${physical!.fiat_account.id}`)
    expect(account.filter((line) => line.startsWith('DEPOSIT'))).toEqual([
      'DEPOSIT SETTLED 350.00',
      'DEPOSIT SETTLED 150.00',
    ])
  })

  it('the demo’s history reads as what happened, and Orders lists its exchanges, top-ups, payments and deposit', async () => {
    const feed = await v2<ActivityPage>('/activity?limit=100')
    expect(feed.next_cursor).toBeNull()
    const lines = feed.data.map((item) =>
      [item.type, item.status, item.merchant?.name].filter(Boolean).join(' '),
    )
    expect(lines).toEqual([
      'card_purchase declined Streaming Plus',
      'card_purchase pending Café Einstein',
      'card_top_up complete',
      'send complete',
      'exchange complete',
      'card_purchase complete Dussmann Bookshop',
      'send complete',
      'deposit complete',
      'card_purchase reversed City Parking',
      'deposit complete',
      'exchange complete',
      'card_purchase complete Café Einstein',
      'deposit complete',
      'fee complete',
      'card_top_up complete',
      'card_top_up complete',
      'send complete',
      'deposit complete',
      'deposit complete',
      'deposit complete',
      'deposit complete',
    ])
    const orders = await v1<OrderList>('/orders?limit=100')
    expect(orders.data.map((o) => `${o.order_type} ${o.status}`)).toEqual([
      'TRANSFER_CARD_PREPAID COMPLETE',
      'WITHDRAWAL_FIAT_SEPA COMPLETE',
      'EXCHANGE_CRYPTO_INTERNAL COMPLETE',
      'WITHDRAWAL_CRYPTO COMPLETE',
      'EXCHANGE_CRYPTO_INTERNAL COMPLETE',
      'TRANSFER_CARD_SUBACCOUNT COMPLETE',
      'TRANSFER_CARD_PREPAID COMPLETE',
      'WITHDRAWAL_FIAT_SEPA COMPLETE',
      'DEPOSIT_FIAT_SEPA COMPLETE',
    ])
    expect((await orderOf('concert')).note).toBe('Concert tickets')
    // Every wallet record is some item's.
    const unclaimed = await app.db
      .selectFrom('wallet_transactions')
      .select('id')
      .where('activity_id', 'is', null)
      .execute()
    expect(unclaimed).toEqual([])
  })

  it('the demo user pays two counterparties: a person by SEPA, a business by SWIFT and on chain', async () => {
    const personal = (await v2<WalletList>('/wallets')).data[0]!
    const saved = (await v2<CounterpartyList>(`/counterparties/${personal.uuid}`)).data
    expect(saved.map((c) => `${c.type} ${c.name} ${c.country} ${c.destinations_count}`)).toEqual([
      'INDIVIDUAL Anna Schmidt DE 1',
      'BUSINESS Northwind Traders Ltd GB 2',
    ])
    const destinations = async (id: string) =>
      (await v2<DestinationList>(`/counterparties/${personal.uuid}/${id}/destinations`)).data.map(
        (d) => [d.type, d.iban ?? d.address, d.bic],
      )
    expect(await destinations(saved[0]!.counterparty_account_id)).toEqual([
      ['SEPA', 'DE89370400440532013000', 'COBADEFFXXX'],
    ])
    expect(await destinations(saved[1]!.counterparty_account_id)).toEqual([
      ['SWIFT', 'GB33BUKB20201555555555', 'BUKBGB22'],
      ['CRYPTO_EXTERNAL', '0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe', null],
    ])
  })

  it('the demo person is verified with a name, a date of birth and an address', async () => {
    expect((await v2<{ kyc_status: string }>('/user')).kyc_status).toBe('APPROVED')
    expect(await v2<Record<string, unknown>>('/user/user-data')).toMatchObject({
      first_name: DEMO_PERSON.first_name,
      last_name: DEMO_PERSON.last_name,
      date_of_birth: DEMO_PERSON.date_of_birth,
      address: expect.objectContaining(DEMO_PERSON.address),
    })
  })
})
