import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { Card } from '../../../contract/cards.ts'
import type { ChainId } from '../../../contract/catalog.ts'
import type { Order } from '../../../contract/orders.ts'
import type { WalletType } from '../../../contract/wallets.ts'
import type { Config } from '../../config.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { JobRunner } from '../../infra/jobs.ts'
import { assertNever } from '../../infra/problem.ts'
import type { BankingProvider } from '../../providers/banking/banking.ts'
import { SeedStore } from '../addresses/seed-store.ts'
import { AddressService } from '../addresses/service.ts'
import { topUpAfterClearing } from '../auto-top-up/run-auto-top-up.ts'
import { CardProcessor } from '../card-transactions/card-network.ts'
import { CardService, printedCvv } from '../cards/service.ts'
import { CARD_DELIVERY_JOB, SandboxCourier } from '../cards/shipping.ts'
import { findCurrencies } from '../catalog/repository.ts'
import { CounterpartyService } from '../counterparties/service.ts'
import { receiveSepaCredit } from '../deposits/sepa-credits.ts'
import { FiatAccountService } from '../fiat-accounts/service.ts'
import { type DefaultProgramKey, defaultProgramId } from '../issuing/default-programs.ts'
import { bookedAt } from '../ledger/booking-time.ts'
import type { Owner } from '../owner.ts'
import type { Services } from '../services.ts'
import { findWallets } from '../wallets/repository.ts'
import { WalletService } from '../wallets/service.ts'
import {
  type DemoMoney,
  demoKey,
  placeDemoOrder,
  receiveDemoDeposit,
  transferId,
} from './demo-money.ts'
import { joinDemo, verifyDemo } from './demo-person.ts'
import {
  DEMO_CARDS,
  DEMO_PERSON,
  type DemoCard,
  type DemoCounterparty,
  type DemoCurrency,
  type DemoEvent,
  EUR,
} from './demo-plan.ts'

/** What the demo is seeded with: the database, the app's services and the sandbox's outside parties. */
export interface DemoDeps {
  db: Kysely<DB>
  jobs: Pick<JobRunner, 'enqueue'>
  /** The sandbox bank: the demo's accounts' IBANs and its payouts. */
  bank: BankingProvider
  services: Pick<Services, 'orders' | 'quotes' | 'deposits' | 'cardCrypto'>
  config: Pick<Config, 'demo' | 'sandboxShipping' | 'secrets'>
  log: FastifyBaseLogger
}

const PAGE = { limit: 100, offset: 0 }

/**
 * Plays the demo's steps (demo-plan.ts), each through the use case a person
 * or an outside party would set off, at the step's time: every service gets
 * it as its `now`, and the card service reads it from its clock. Every step
 * finds what it makes before making it (fixed idempotency keys, lookups by
 * type, name or program), so a second run — a restart, two at once, a run
 * after one that died — converges on one demo.
 */
export class DemoRunner {
  #at = new Date()
  #owner: Owner | undefined
  readonly #money: DemoMoney
  readonly #wallets: WalletService
  readonly #addresses: AddressService
  readonly #accounts: FiatAccountService
  readonly #counterparties: CounterpartyService
  readonly #cards: CardService
  readonly #courier: SandboxCourier
  readonly #network: CardProcessor
  /** The saved destinations, as `<counterparty>:<destination>` (the plan's keys). */
  readonly #destinations = new Map<string, string>()
  /** The cards issued, by the demo's name for them. */
  readonly #issued = new Map<DemoCard, Card>()
  /** What the purchases' follow-ups name: the card and its authorisation. */
  readonly #purchases = new Map<string, { cardId: string; authorizationId: string }>()
  #currencies: Map<string, string> | undefined

  constructor(private readonly deps: DemoDeps) {
    const { db, jobs, bank, services, config, log } = deps
    this.#money = { db, log, ...services }
    this.#wallets = new WalletService(db)
    this.#addresses = new AddressService(db, new SeedStore(config.secrets.addressSeedKey))
    this.#accounts = new FiatAccountService(db, bank)
    this.#counterparties = new CounterpartyService(db)
    // The courier's steps are the demo's to play: its queued job then finds the card delivered.
    this.#courier = new SandboxCourier(db, jobs, config.sandboxShipping.stepMs)
    this.#cards = new CardService(db, services.cardCrypto, {
      jobs,
      bank,
      shipping: this.#courier,
      clock: () => this.#at,
    })
    this.#network = new CardProcessor(db, services.cardCrypto, topUpAfterClearing)
  }

  /** The demo user, once the join step has found or made her. */
  get owner(): Owner {
    if (!this.#owner) throw new Error('the demo has no user yet: its first step joins')
    return this.#owner
  }

  /** Plays one step, its ledger entries booked at its time (ledger/booking-time.ts). */
  play(event: DemoEvent, at: Date): Promise<void> {
    this.#at = at
    return bookedAt(at, () => this.#play(event, at))
  }

  async #play(event: DemoEvent, at: Date): Promise<void> {
    switch (event.kind) {
      case 'join':
        this.#owner = await joinDemo(this.deps.db, this.deps.config.demo.password, at)
        return
      case 'verify':
        return verifyDemo(this.deps.db, this.owner, at)
      case 'wallet':
        return this.#openWallet(event.wallet, event.chains, at)
      case 'crypto-deposit':
        return receiveDemoDeposit(
          this.#money,
          this.owner,
          {
            key: event.key,
            walletId: await this.#wallet(event.wallet),
            chain: event.currency.chain,
            currencyUuid: await this.#currency(event.currency),
            amount: event.amount,
          },
          at,
        )
      case 'bank-deposit':
        await this.#order(event.key, at, {
          order_type: 'DEPOSIT_FIAT_SEPA',
          wallet_uuid: await this.#wallet('personal'),
          from_uuid: await this.#currency(EUR),
          amount_from: event.amount,
        })
        return
      case 'bank-transfer':
        return this.#transferArrives(event.deposit, event.sender, at)
      case 'counterparty':
        await this.#counterparty(event.counterparty, at)
        return
      case 'payment': {
        const fiat = event.currency.chain === null
        await this.#order(
          event.key,
          at,
          {
            order_type: fiat ? 'WITHDRAWAL_FIAT_SEPA' : 'WITHDRAWAL_CRYPTO',
            wallet_uuid: await this.#wallet('personal'),
            from_uuid: await this.#currency(event.currency),
            amount_from: event.amount,
            destination_id: this.#destination(event.to),
          },
          event.note,
        )
        return
      }
      case 'exchange':
        await this.#order(event.key, at, {
          order_type: 'EXCHANGE_CRYPTO_INTERNAL',
          wallet_uuid: await this.#wallet(event.wallet),
          from_uuid: await this.#currency(event.from),
          to_uuid: await this.#currency(event.to),
          amount_from: event.amount,
        })
        return
      case 'fiat-account':
        await this.#account(event.program, at)
        return
      case 'top-up': {
        const account = await this.#account(event.program, at)
        await this.#order(event.key, at, {
          order_type:
            account.sub_account_type === 'prepaid'
              ? 'TRANSFER_CARD_PREPAID'
              : 'TRANSFER_CARD_SUBACCOUNT',
          wallet_uuid: await this.#wallet('personal'),
          from_uuid: await this.#currency(EUR),
          amount_from: event.amount,
          fiat_account_id: account.id,
        })
        return
      }
      case 'card':
        await this.#card(event.card, at)
        return
      case 'courier': {
        const cardId = (await this.#card('physical', at)).id
        const job = { kind: CARD_DELIVERY_JOB, tenantId: this.owner.tenantId, attempt: 1 }
        await this.#courier.deliver(
          { ...job, id: `demo:delivery:${cardId}`, payload: { card_id: cardId } },
          { db: this.deps.db, log: this.deps.log, now: at },
        )
        return
      }
      case 'card-activated':
        return this.#activate(at)
      case 'card-purchase': {
        const cardId = (await this.#card(event.card, at)).id
        const { transaction } = await this.#network.receive(
          {
            card_id: cardId,
            type: 'AUTHORIZATION',
            amount: event.amount,
            currency: EUR.code,
            merchant: event.merchant,
            network_message_id: demoKey(event.key),
          },
          at,
        )
        this.#purchases.set(event.key, { cardId, authorizationId: transaction.id })
        return
      }
      case 'card-follow-up': {
        const purchase = this.#purchases.get(event.of)
        if (!purchase) throw new Error(`the demo follows up ${event.of}, a purchase it never made`)
        await this.#network.receive(
          {
            card_id: purchase.cardId,
            type: event.type,
            amount: event.amount,
            currency: EUR.code,
            authorization_id: purchase.authorizationId,
            network_message_id: demoKey(`${event.of}:${event.type.toLowerCase()}`),
          },
          at,
        )
        return
      }
      case 'account-credit': {
        const account = await this.#account(event.program, at)
        const iban = account.bank_details?.iban
        if (!iban) throw new Error(`the demo's ${event.program} account has no IBAN to pay into`)
        await receiveSepaCredit(
          this.deps.db,
          {
            tenantId: this.owner.tenantId,
            iban,
            amount: event.amount,
            currency: EUR.code,
            senderName: event.sender.name,
            senderIban: event.sender.iban,
            remittance: event.remittance,
            endToEndId: transferId(this.owner, event.key),
          },
          at,
        )
        return
      }
      default:
        return assertNever(event)
    }
  }

  #order(
    key: string,
    at: Date,
    query: Parameters<typeof placeDemoOrder>[2]['query'],
    note?: string,
  ): Promise<Order> {
    return placeDemoOrder(this.#money, this.owner, { key, query, note }, at)
  }

  /** The bank transfer for a demo deposit order arrives, carrying its reference and total. */
  async #transferArrives(deposit: string, sender: { name: string; iban: string }, at: Date) {
    const order = await this.#money.orders.findByRequest(this.owner, demoKey(deposit))
    const instructions = order?.deposit_instructions
    if (!order || !instructions) throw new Error(`the demo has no deposit order ${deposit}`)
    if (order.status !== 'PENDING') return
    await this.#money.orders.receiveBankTransfer(
      {
        tenantId: this.owner.tenantId,
        reference: instructions.reference,
        amount: instructions.amount,
        currency: instructions.currency,
        senderName: sender.name,
        senderIban: sender.iban,
      },
      at,
    )
  }

  async #openWallet(type: WalletType, chains: readonly ChainId[], at: Date) {
    const existing = (await findWallets(this.deps.db, this.owner, PAGE)).find(
      (w) => w.type === type,
    )
    const id = existing?.id ?? (await this.#wallets.createWallet(this.owner, type, at)).uuid
    for (const chain of chains) {
      const list = await this.#addresses.listAddresses(this.owner, id, chain)
      if (list.total === 0) await this.#addresses.createAddress(this.owner, id, chain, null, at)
    }
  }

  async #wallet(type: WalletType): Promise<string> {
    const wallet = (await findWallets(this.deps.db, this.owner, PAGE)).find((w) => w.type === type)
    if (!wallet) throw new Error(`the demo has no ${type} wallet yet`)
    return wallet.id
  }

  async #currency(currency: DemoCurrency): Promise<string> {
    this.#currencies ??= new Map(
      (await findCurrencies(this.deps.db)).map((row) => [`${row.code}/${row.chain}`, row.uuid]),
    )
    const uuid = this.#currencies.get(`${currency.code}/${currency.chain}`)
    if (!uuid) throw new Error(`the catalogue has no ${currency.code} on ${currency.chain}`)
    return uuid
  }

  /** The program's account of the personal wallet (the oldest: not a stand-alone card's own). */
  async #account(program: DefaultProgramKey, at: Date) {
    const walletId = await this.#wallet('personal')
    const programId = defaultProgramId(this.owner.tenantId, program)
    const find = async () =>
      (await this.#accounts.list(this.owner, walletId, PAGE)).data.find(
        (account) => account.program_id === programId,
      )
    return (await find()) ?? this.#accounts.create(this.owner, walletId, programId, at)
  }

  /** A counterparty of the personal wallet with its destinations, found by name or made. */
  async #counterparty(counterparty: DemoCounterparty, at: Date) {
    const walletId = await this.#wallet('personal')
    const query = { ...PAGE, search: counterparty.name }
    const found = (
      await this.#counterparties.listCounterparties(this.owner, walletId, query)
    ).data.find((saved) => saved.name === counterparty.name)
    const id =
      found?.counterparty_account_id ??
      (await this.#counterparties.createCounterparty(this.owner, walletId, counterparty.body, at))
        .counterparty_account_id
    const saved = (await this.#counterparties.listDestinations(this.owner, walletId, id, PAGE)).data
    for (const { key, ...body } of counterparty.destinations) {
      const same = saved.find((d) => d.type === body.type && d.label === body.label)
      const destination =
        same ?? (await this.#counterparties.createDestination(this.owner, walletId, id, body, at))
      this.#destinations.set(`${counterparty.key}:${key}`, destination.counterparty_destination_id)
    }
  }

  /** A destination a step saved earlier, by `<counterparty>:<destination>`. */
  #destination(ref: string): string {
    const id = this.#destinations.get(ref)
    if (!id) throw new Error(`the demo pays ${ref}, which no earlier step saved`)
    return id
  }

  /** A demo card, issued under its fixed key (a second run answers the first issue again). */
  async #card(card: DemoCard, at: Date): Promise<Card> {
    const known = this.#issued.get(card)
    if (known) return known
    const plan = DEMO_CARDS[card]
    const requestKey = demoKey(`card:${card}`)
    const issued =
      card === 'virtual'
        ? await this.#cards.createStandAlone(this.owner, {
            walletId: await this.#wallet('personal'),
            programId: defaultProgramId(this.owner.tenantId, plan.program),
            formFactor: 'VIRTUAL',
            nickName: plan.nickName,
            requestKey,
          })
        : await this.#cards.createOnAccount(this.owner, {
            fiatAccountId: (await this.#account(plan.program, at)).id,
            formFactor: 'PHYSICAL',
            nickName: plan.nickName,
            deliveryAddress: {
              recipient_name: `${DEMO_PERSON.first_name} ${DEMO_PERSON.last_name}`,
              ...DEMO_PERSON.address,
            },
            requestKey,
          })
    this.#issued.set(card, issued.card)
    return issued.card
  }

  /** The delivered physical card, activated with the code printed on it. */
  async #activate(at: Date) {
    const { id } = await this.#card('physical', at)
    const card = await this.#cards.get(this.owner, id)
    if (card.status !== 'INACTIVE') return
    const cvv = await printedCvv(this.deps.db, this.deps.services.cardCrypto, {
      tenantId: this.owner.tenantId,
      cardId: id,
    })
    await this.#cards.activate(this.owner, id, cvv)
  }
}
