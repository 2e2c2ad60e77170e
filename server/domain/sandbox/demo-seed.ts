import { hash as argon2Hash } from '@node-rs/argon2'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { Insertable, Kysely } from 'kysely'
import { v5 as uuidv5 } from 'uuid'
import type { ChainId } from '../../../contract/catalog.ts'
import { toMinor } from '../../../contract/money.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { WalletType } from '../../../contract/wallets.ts'
import type { Config } from '../../config.ts'
import type {
  CounterpartiesTable,
  CounterpartyDestinationsTable,
  DB,
} from '../../infra/db/schema.ts'
import type { JobContext, JobRunner } from '../../infra/jobs.ts'
import type { ReceivingBank } from '../../providers/banking/banking.ts'
import { insertActivity } from '../activity/repository.ts'
import { SeedStore } from '../addresses/seed-store.ts'
import { AddressService } from '../addresses/service.ts'
import { judgePassword } from '../auth/password-policy.ts'
import { findUserByEmail, insertUserWithEmail } from '../auth/repository.ts'
import { CardProcessor, recordDeposit } from '../card-transactions/service.ts'
import { CardCrypto } from '../cards/card-crypto.ts'
import { CardError } from '../cards/errors.ts'
import { CardService, printedCvv } from '../cards/service.ts'
import { CARD_DELIVERY_JOB, SandboxCourier } from '../cards/shipping.ts'
import { DEPOSIT_JOB, DepositService } from '../deposits/service.ts'
import { findFiatAccounts } from '../fiat-accounts/repository.ts'
import { type DefaultProgramKey, defaultProgramId, FIAT } from '../fiat-accounts/rules.ts'
import { ensureDefaultPrograms, FiatAccountService } from '../fiat-accounts/service.ts'
import { approveForDemo } from '../kyc/service.ts'
import type { Posting } from '../ledger/rules.ts'
import { transfer } from '../ledger/rules.ts'
import { post, systemAccount, walletAccounts } from '../ledger/service.ts'
import type { Owner } from '../owner.ts'
import { findWallets } from '../wallets/repository.ts'
import { WalletService } from '../wallets/service.ts'

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

/** What the demo user holds: two wallets, addresses on four chains, five settled crypto deposits. */
const DEMO_WALLETS: { type: WalletType; chains: ChainId[] }[] = [
  { type: 'personal', chains: ['bitcoin', 'ethereum', 'tron'] },
  { type: 'trading', chains: ['tron', 'solana'] },
]
const DEMO_DEPOSITS: { wallet: WalletType; chain: ChainId; currency: string; amount: string }[] = [
  { wallet: 'personal', chain: 'bitcoin', currency: 'BTC', amount: '0.01250000' },
  { wallet: 'personal', chain: 'ethereum', currency: 'ETH', amount: '0.85' },
  { wallet: 'personal', chain: 'tron', currency: 'USDT', amount: '1250.00' },
  { wallet: 'trading', chain: 'tron', currency: 'USDT', amount: '500' },
  { wallet: 'trading', chain: 'solana', currency: 'USDC', amount: '320.50' },
]

/**
 * The demo's fiat side, all in the personal wallet: a SEPA transfer in, then
 * one fiat account per active EUR program, each topped up from the wallet.
 */
const DEMO_FIAT_WALLET: WalletType = 'personal'
const DEMO_EUR_DEPOSIT = { amount: '2500.00', senderIban: 'DE02100100109307118603' }
export const DEMO_TOP_UPS: { program: DefaultProgramKey; amount: string; fee: string }[] = [
  // The fee is the program's top-up percentage (1 %), paid on top, as a top-up order charges it.
  { program: 'eur-prepaid', amount: '200.00', fee: '2.00' },
  { program: 'eur-balance', amount: '350.00', fee: '0.00' },
]

type DemoDestination = Omit<
  Insertable<CounterpartyDestinationsTable>,
  'id' | 'tenant_id' | 'counterparty_id'
> & { key: string }
type DemoCounterparty = Omit<Insertable<CounterpartiesTable>, 'id' | 'tenant_id' | 'wallet_id'> & {
  key: string
  destinations: DemoDestination[]
}

/** Two people the demo user pays, on a bank rail each and one on a chain. IBANs in electronic format. */
const DEMO_COUNTERPARTIES: DemoCounterparty[] = [
  {
    key: 'anna-schmidt',
    type: 'INDIVIDUAL',
    first_name: 'Anna',
    last_name: 'Schmidt',
    email: 'anna.schmidt@example.com',
    phone: '+4915123456789',
    country: 'DE',
    address: JSON.stringify({
      country: 'DE',
      city: 'Berlin',
      line1: 'Friedrichstraße 68',
      postal_code: '10117',
    }),
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
  },
  {
    key: 'northwind-traders',
    type: 'BUSINESS',
    legal_name: 'Northwind Traders Ltd',
    email: 'payments@northwind.example',
    country: 'GB',
    address: JSON.stringify({
      country: 'GB',
      city: 'London',
      line1: '1 Canada Square',
      postal_code: 'E14 5AB',
    }),
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
  },
]

/**
 * The demo's cards: a stand-alone virtual one (its own empty prepaid
 * account) and a physical one on the EUR balance account, delivered and
 * activated. Issued through the card service under fixed request ids, so a
 * restart replays them.
 */
const DEMO_DELIVERY_ADDRESS = {
  recipient_name: `${DEMO_PERSON.first_name} ${DEMO_PERSON.last_name}`,
  line1: DEMO_PERSON.address.line1,
  city: DEMO_PERSON.address.city,
  postal_code: DEMO_PERSON.address.postal_code,
  country: DEMO_PERSON.address.country,
}
/** What demos seeded before the demo had a name sent: the card they issued is found under it. */
const LEGACY_DELIVERY_ADDRESS = { ...DEMO_DELIVERY_ADDRESS, recipient_name: 'Demo User' }
const CAFE = { name: 'Café Einstein', mcc: '5814', city: 'Berlin', country: 'DE' }
const PARKING = { name: 'City Parking', mcc: '7523', city: 'Berlin', country: 'DE' }
const BOOKSHOP = { name: 'Dussmann Bookshop', mcc: '5942', city: 'Berlin', country: 'DE' }
const STREAMING = { name: 'Streaming Plus', mcc: '4899', city: 'Amsterdam', country: 'NL' }

/**
 * What the sandbox card network sends for the demo, in order, each under a
 * fixed network_message_id (a restart replays it): a purchase approved and
 * cleared, one reversed, one cleared and partly refunded on the physical
 * card, and one declined on the empty virtual card.
 */
export const DEMO_CARD_MESSAGES: {
  key: string
  card: 'virtual' | 'physical'
  type: 'AUTHORIZATION' | 'CLEARING' | 'REVERSAL' | 'REFUND'
  amount: string
  merchant?: typeof CAFE
  /** The key of the authorisation a clearing, reversal or refund follows. */
  follows?: string
}[] = [
  { key: 'cafe', card: 'physical', type: 'AUTHORIZATION', amount: '42.90', merchant: CAFE },
  { key: 'cafe:clear', card: 'physical', type: 'CLEARING', amount: '42.90', follows: 'cafe' },
  { key: 'parking', card: 'physical', type: 'AUTHORIZATION', amount: '18.00', merchant: PARKING },
  {
    key: 'parking:reverse',
    card: 'physical',
    type: 'REVERSAL',
    amount: '18.00',
    follows: 'parking',
  },
  { key: 'books', card: 'physical', type: 'AUTHORIZATION', amount: '64.00', merchant: BOOKSHOP },
  { key: 'books:clear', card: 'physical', type: 'CLEARING', amount: '64.00', follows: 'books' },
  { key: 'books:refund', card: 'physical', type: 'REFUND', amount: '24.00', follows: 'books' },
  {
    key: 'streaming',
    card: 'virtual',
    type: 'AUTHORIZATION',
    amount: '12.99',
    merchant: STREAMING,
  },
]

/** A fixed id for a demo item: the same at every start, so inserting it again is a no-op. */
const demoId = (name: string) => uuidv5(`demo-seed:${name}`, DEMO_TENANT_ID)

export interface DemoDeps {
  db: Kysely<DB>
  jobs: Pick<JobRunner, 'enqueue'>
  /** The bank that gives the demo's fiat accounts their IBANs. */
  bank: ReceivingBank
  config: Pick<Config, 'demo' | 'sandboxChain' | 'sandboxShipping' | 'secrets'>
  log: FastifyBaseLogger
}

/**
 * The demo user of the demo tenant, with wallets, addresses and completed
 * deposits, EUR with two fiat accounts, and two counterparties. Every item is looked up before it is made and the deposits carry
 * fixed idempotency keys, so running it at every start (or twice at once, or
 * after a start that died half-way) converges on the same demo.
 */
export async function seedDemo(deps: DemoDeps): Promise<{ email: string; password: string }> {
  const { db, config } = deps
  const tenantId = DEMO_TENANT_ID
  const password = config.demo.password
  checkDemoPassword(password)

  let user = await findUserByEmail(db, tenantId, DEMO_EMAIL)
  if (!user) {
    const passwordHash = await argon2Hash(password)
    await db
      .transaction()
      .execute((trx) => insertUserWithEmail(trx, { tenantId, email: DEMO_EMAIL, passwordHash }))
    user = await findUserByEmail(db, tenantId, DEMO_EMAIL)
    if (!user) throw new Error('the demo user was not created')
  }
  const owner = { tenantId, userId: user.id }
  await seedPerson(db, owner)
  // Verified, so the demo can issue cards and withdraw at once (KYC gates).
  await approveForDemo(db, owner)

  const wallets = new WalletService(db)
  const addresses = new AddressService(db, new SeedStore(config.secrets.addressSeedKey))
  const deposits = new DepositService(db, deps.jobs, config.sandboxChain)
  const existing = await findWallets(db, owner, { limit: 100, offset: 0 })
  const walletIds = new Map<WalletType, string>()
  for (const plan of DEMO_WALLETS) {
    const id =
      existing.find((wallet) => wallet.type === plan.type)?.id ??
      (await wallets.createWallet(owner, plan.type)).uuid
    walletIds.set(plan.type, id)
    for (const chain of plan.chains) {
      const list = await addresses.listAddresses(owner, id, chain)
      if (list.total === 0) await addresses.createAddress(owner, id, chain, 'Demo')
    }
  }

  const depositIds: string[] = []
  for (const [index, plan] of DEMO_DEPOSITS.entries()) {
    const deposit = await deposits.create({
      tenantId,
      walletId: walletIds.get(plan.wallet)!,
      chain: plan.chain,
      currency: plan.currency,
      amount: plan.amount,
      idempotencyKey: `demo-seed:${index}`,
    })
    // Settled here, not block by block: the demo starts with its history complete.
    // The queued job then finds nothing left to do.
    await settle(deposits, { db, log: deps.log, now: new Date() }, deposit.uuid)
    depositIds.push(deposit.uuid)
  }

  const fiatWallet = walletIds.get(DEMO_FIAT_WALLET)!
  await seedFiat(db, deps.bank, owner, fiatWallet)
  const cards = await seedCards(deps, owner, fiatWallet)
  await seedCounterparties(db, fiatWallet)
  await spreadOverWeeks(db, owner, { wallets: [...walletIds.values()], depositIds, cards })
  return { email: DEMO_EMAIL, password }
}

/** The demo's name, date of birth and address, as a verified person has them. */
async function seedPerson(db: Kysely<DB>, owner: Owner) {
  const { address, ...person } = DEMO_PERSON
  await db
    .updateTable('user_profiles')
    .set({ ...person, address: JSON.stringify(address) })
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('first_name', 'is', null)
    .execute()
  await db
    .insertInto('kyc_verifications')
    .values({
      id: demoId('kyc'),
      tenant_id: owner.tenantId,
      user_id: owner.userId,
      provider: 'sandbox',
      first_name: person.first_name,
      last_name: person.last_name,
      document_type: 'ID_CARD',
      country: address.country,
      status: 'APPROVED',
      decided_at: new Date(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
}

/** Days before the seed each dated thing of the demo happened, oldest first. */
const DEMO_AGES = {
  joined: 38,
  verified: 37,
  wallets: 37,
  deposits: [34, 31, 27, 19, 12], // in DEMO_DEPOSITS' order
  eurDeposit: 26,
  topUps: { 'eur-prepaid': 25, 'eur-balance': 24 } as Partial<Record<DefaultProgramKey, number>>,
  cards: 23,
  /** Card messages by key: a purchase and its clearing a day apart, a refund days later. */
  card: {
    cafe: 9,
    'cafe:clear': 8,
    parking: 6,
    'parking:reverse': 6,
    books: 4,
    'books:clear': 3,
    'books:refund': 1,
    streaming: 0.1,
  } satisfies Record<(typeof DEMO_CARD_MESSAGES)[number]['key'], number>,
}

/**
 * A history that happened over weeks, not in the minute of the seed: once,
 * while the demo user is less than a day old (a start that died half-way is
 * finished by the next), every dated record of the person is moved back to
 * its age in DEMO_AGES, and the user with them, so the next start leaves
 * them be. Only what the person reads moves: ledger entries are immutable
 * (their trigger) and keep the seed's time.
 */
async function spreadOverWeeks(
  db: Kysely<DB>,
  owner: Owner,
  seeded: { wallets: string[]; depositIds: string[]; cards: SeededCards },
) {
  const { tenantId, userId } = owner
  const user = await db
    .selectFrom('users')
    .select('created_at')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  const now = Date.now()
  const DAY = 24 * 60 * 60 * 1000
  if (now - user.created_at.getTime() > DAY) return
  const ago = (days: number) => new Date(now - days * DAY)

  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ created_at: ago(DEMO_AGES.joined) })
      .where('id', '=', userId)
      .execute()
    await trx
      .updateTable('kyc_status_history')
      .set({ occurred_at: ago(DEMO_AGES.verified), created_at: ago(DEMO_AGES.verified) })
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .execute()
    await trx
      .updateTable('kyc_verifications')
      .set({ submitted_at: ago(DEMO_AGES.verified), decided_at: ago(DEMO_AGES.verified) })
      .where('id', '=', demoId('kyc'))
      .execute()
    await trx
      .updateTable('wallets')
      .set({ created_at: ago(DEMO_AGES.wallets) })
      .where('id', 'in', seeded.wallets)
      .execute()
    await trx
      .updateTable('wallet_addresses')
      .set({ created_at: ago(DEMO_AGES.wallets) })
      .where('wallet_id', 'in', seeded.wallets)
      .execute()
    const records: [string, number][] = [
      ...seeded.depositIds.map((id, index): [string, number] => [id, DEMO_AGES.deposits[index]!]),
      [demoId('eur-deposit'), DEMO_AGES.eurDeposit],
      ...DEMO_TOP_UPS.flatMap(({ program }): [string, number][] => [
        [demoId(`top-up:${program}:amount`), DEMO_AGES.topUps[program] ?? DEMO_AGES.cards],
        [demoId(`top-up:${program}:fee`), DEMO_AGES.topUps[program] ?? DEMO_AGES.cards],
      ]),
    ]
    for (const [id, days] of records) {
      await trx
        .updateTable('wallet_transactions')
        .set({ created_at: ago(days), updated_at: ago(days) })
        .where('id', '=', id)
        .execute()
    }
    for (const { program } of DEMO_TOP_UPS) {
      const days = DEMO_AGES.topUps[program] ?? DEMO_AGES.cards
      await trx
        .updateTable('card_transactions')
        .set({ created_at: ago(days), updated_at: ago(days) })
        .where('operation_id', '=', demoId(`top-up:${program}`))
        .execute()
    }
    await trx
      .updateTable('fiat_accounts')
      .set({ created_at: ago(DEMO_AGES.eurDeposit) })
      .where('wallet_id', 'in', seeded.wallets)
      .execute()
    await trx
      .updateTable('cards')
      .set({ created_at: ago(DEMO_AGES.cards) })
      .where('id', 'in', [seeded.cards.virtual, seeded.cards.physical])
      .execute()
    // The physical card's issuing fee, charged as it was ordered.
    await trx
      .updateTable('card_transactions')
      .set({ created_at: ago(DEMO_AGES.cards), updated_at: ago(DEMO_AGES.cards) })
      .where('card_id', 'in', [seeded.cards.virtual, seeded.cards.physical])
      .where('type', '=', 'FEE')
      .execute()
    for (const [key, id] of seeded.cards.messages) {
      const days = DEMO_AGES.card[key as keyof typeof DEMO_AGES.card]
      await trx
        .updateTable('card_transactions')
        .set({ created_at: ago(days), updated_at: ago(days) })
        .where('id', '=', id)
        .execute()
    }
  })
}

/**
 * The EUR deposit, then the fiat accounts and their top-ups. Each movement is
 * one ledger entry under a fixed key with its history records in the same
 * transaction, written only when the entry is new: a replay writes nothing.
 */
async function seedFiat(db: Kysely<DB>, bank: ReceivingBank, owner: Owner, walletId: string) {
  const { tenantId } = owner
  await ensureDefaultPrograms(db, tenantId)
  await db.transaction().execute(async (trx) => {
    const accounts = await walletAccounts(trx, tenantId, walletId)
    if (!accounts) throw new Error(`demo wallet ${walletId} has no ledger accounts`)
    const amount = toMinor(DEMO_EUR_DEPOSIT.amount, 2)
    const entry = await post(trx, {
      tenantId,
      kind: 'deposit',
      idempotencyKey: 'demo-seed:eur-deposit',
      postings: transfer(
        await systemAccount(trx, tenantId, 'external'),
        accounts.user_wallet,
        FIAT.EUR,
        amount,
      ),
    })
    if (entry.replayed) return
    const at = new Date()
    const recordId = demoId('eur-deposit')
    const activityId = await insertActivity(trx, {
      id: demoId('eur-deposit:activity'),
      tenant_id: tenantId,
      user_id: owner.userId,
      type: 'deposit',
      status: 'complete',
      direction: 'in',
      source_type: 'wallet_transaction',
      source_id: recordId,
      wallet_id: walletId,
      currency_uuid: FIAT.EUR,
      amount_minor: amount.toString(),
      address: DEMO_EUR_DEPOSIT.senderIban,
      created_at: at,
      updated_at: at,
    })
    await trx
      .insertInto('wallet_transactions')
      .values({
        id: recordId,
        tenant_id: tenantId,
        wallet_id: walletId,
        type: 'deposit',
        method: 'bank_transfer',
        record_type: 'DEPOSIT',
        status: 'complete',
        currency_uuid: FIAT.EUR,
        amount_minor: amount.toString(),
        address: DEMO_EUR_DEPOSIT.senderIban,
        activity_id: activityId,
        created_at: at,
        updated_at: at,
      })
      .execute()
  })

  const fiatAccounts = new FiatAccountService(db, bank)
  const page = { limit: 100, offset: 0 }
  for (const plan of DEMO_TOP_UPS) {
    const programId = defaultProgramId(tenantId, plan.program)
    const find = async () =>
      (await findFiatAccounts(db, owner, walletId, page)).find((a) => a.program_id === programId)
    let account = await find()
    if (!account) {
      await fiatAccounts.create(owner, walletId, programId)
      account = await find()
    }
    if (!account) throw new Error(`demo fiat account of ${plan.program} was not created`)
    await topUp(db, owner, walletId, account, plan)
  }
}

async function topUp(
  db: Kysely<DB>,
  { tenantId, userId }: Owner,
  walletId: string,
  { id: fiatAccountId, ledger_account_id: subAccount }: { id: string; ledger_account_id: string },
  plan: (typeof DEMO_TOP_UPS)[number],
) {
  const key = `demo-seed:top-up:${plan.program}`
  const operationId = demoId(`top-up:${plan.program}`)
  const amount = toMinor(plan.amount, 2)
  const fee = toMinor(plan.fee, 2)
  await db.transaction().execute(async (trx) => {
    const accounts = await walletAccounts(trx, tenantId, walletId)
    if (!accounts) throw new Error(`demo wallet ${walletId} has no ledger accounts`)
    const postings: Posting[] = [
      { account: accounts.user_wallet, currency: FIAT.EUR, amount: -(amount + fee) },
      { account: subAccount, currency: FIAT.EUR, amount },
    ]
    if (fee > 0n) {
      const fees = await systemAccount(trx, tenantId, 'fees')
      postings.push({ account: fees, currency: FIAT.EUR, amount: fee })
    }
    const entry = await post(trx, { tenantId, kind: 'card_top_up', idempotencyKey: key, postings })
    if (entry.replayed) return
    const at = new Date()
    const activityId = await insertActivity(trx, {
      id: demoId(`top-up:${plan.program}:activity`),
      tenant_id: tenantId,
      user_id: userId,
      type: 'card_top_up',
      status: 'complete',
      direction: 'own',
      source_type: 'wallet_transaction',
      source_id: demoId(`top-up:${plan.program}:amount`),
      wallet_id: walletId,
      fiat_account_id: fiatAccountId,
      currency_uuid: FIAT.EUR,
      amount_minor: amount.toString(),
      fee_minor: fee.toString(),
      received_currency_uuid: FIAT.EUR,
      received_minor: amount.toString(),
      created_at: at,
      updated_at: at,
    })
    await recordDeposit(trx, { fiatAccountId, operationId, amountMinor: amount, activityId, at })
    const record = {
      tenant_id: tenantId,
      wallet_id: walletId,
      type: 'withdrawal',
      method: 'p2p',
      status: 'complete',
      currency_uuid: FIAT.EUR,
      operation_id: operationId,
      activity_id: activityId,
      created_at: at,
      updated_at: at,
    } as const
    await trx
      .insertInto('wallet_transactions')
      .values([
        {
          ...record,
          id: demoId(`top-up:${plan.program}:amount`),
          record_type: 'CARD_PROVIDER_DEPOSIT',
          amount_minor: amount.toString(),
        },
        ...(fee > 0n
          ? [
              {
                ...record,
                id: demoId(`top-up:${plan.program}:fee`),
                record_type: 'FEE' as const,
                amount_minor: fee.toString(),
              },
            ]
          : []),
      ])
      .execute()
  })
}

/**
 * The cards and their transactions, through the card service and the sandbox
 * processor: the physical card is driven through its delivery (the courier's
 * steps run here, not after SANDBOX_SHIPPING_MS) and activated with the
 * security code printed on it. Fixed request ids and network message ids make a restart
 * replay every step.
 */
interface SeededCards {
  virtual: string
  physical: string
  /** The card transaction each of DEMO_CARD_MESSAGES made, by the message's key. */
  messages: Map<string, string>
}

async function seedCards(deps: DemoDeps, owner: Owner, walletId: string): Promise<SeededCards> {
  const { db } = deps
  const { tenantId } = owner
  const crypto = new CardCrypto(deps.config.secrets)
  const courier = new SandboxCourier(db, deps.jobs, deps.config.sandboxShipping.stepMs)
  const cards = new CardService(db, crypto, {
    jobs: deps.jobs,
    bank: deps.bank,
    shipping: courier,
  })
  const virtual = await cards.createStandAlone(owner, {
    walletId,
    programId: defaultProgramId(tenantId, 'eur-prepaid'),
    formFactor: 'VIRTUAL',
    nickName: 'Online shopping',
    requestKey: 'demo-seed:card:virtual',
  })
  const balanceProgram = defaultProgramId(tenantId, 'eur-balance')
  const account = (await findFiatAccounts(db, owner, walletId, { limit: 100, offset: 0 })).find(
    (a) => a.program_id === balanceProgram,
  )
  if (!account) throw new Error('the demo EUR balance account was not created')
  const issuePhysical = (deliveryAddress: typeof DEMO_DELIVERY_ADDRESS) =>
    cards.createOnAccount(owner, {
      fiatAccountId: account.id,
      formFactor: 'PHYSICAL',
      nickName: 'Everyday',
      deliveryAddress,
      requestKey: 'demo-seed:card:physical',
    })
  const physical = await issuePhysical(DEMO_DELIVERY_ADDRESS).catch((error: unknown) => {
    // A demo seeded before it had a name: its card went to "Demo User" under this key.
    if (error instanceof CardError && error.failure.kind === 'IDEMPOTENCY_CONFLICT') {
      return issuePhysical(LEGACY_DELIVERY_ADDRESS)
    }
    throw error
  })
  const cardId = physical.card.id
  const job = {
    id: `deliver:${cardId}`,
    kind: CARD_DELIVERY_JOB,
    tenantId,
    payload: { card_id: cardId },
    attempt: 1,
  }
  const context = { db, log: deps.log, now: new Date() }
  for (let step = 0; step < 3; step++) {
    if ((await courier.deliver(job, context)) === undefined) break
  }
  const delivered = await cards.get(owner, cardId)
  if (delivered.status === 'INACTIVE') {
    await cards.activate(owner, cardId, await printedCvv(db, crypto, { tenantId, cardId }))
  }

  const processor = new CardProcessor(db, crypto)
  const ids = new Map<string, string>()
  for (const message of DEMO_CARD_MESSAGES) {
    const { transaction } = await processor.receive({
      card_id: message.card === 'virtual' ? virtual.card.id : cardId,
      type: message.type,
      amount: message.amount,
      currency: 'EUR',
      ...(message.merchant && { merchant: message.merchant }),
      ...(message.follows && { authorization_id: ids.get(message.follows) }),
      network_message_id: `demo-seed:${message.key}`,
    })
    ids.set(message.key, transaction.id)
  }
  return { virtual: virtual.card.id, physical: cardId, messages: ids }
}

/** Straight rows under fixed ids: inserting again (a restart, two seeds at once) adds nothing. */
async function seedCounterparties(db: Kysely<DB>, walletId: string) {
  const tenantId = DEMO_TENANT_ID
  for (const { key, destinations, ...counterparty } of DEMO_COUNTERPARTIES) {
    const counterpartyId = demoId(`counterparty:${key}`)
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('counterparties')
        .values({ ...counterparty, id: counterpartyId, tenant_id: tenantId, wallet_id: walletId })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
      await trx
        .insertInto('counterparty_destinations')
        .values(
          destinations.map(({ key: destination, ...row }) => ({
            ...row,
            id: demoId(`counterparty:${key}:${destination}`),
            tenant_id: tenantId,
            counterparty_id: counterpartyId,
          })),
        )
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    })
  }
}

async function settle(deposits: DepositService, context: JobContext, transactionId: string) {
  const job = {
    id: `settle:${transactionId}`,
    kind: DEPOSIT_JOB,
    tenantId: DEMO_TENANT_ID,
    payload: { transaction_id: transactionId },
    attempt: 1,
  }
  for (let step = 0; step < 1_000; step++) {
    if ((await deposits.step(job, context)) === undefined) return
  }
  throw new Error(`demo deposit ${transactionId} did not settle`)
}

/** The password policy's verdict on DEMO_PASSWORD; a refusal stops the start. */
function checkDemoPassword(password: string) {
  const verdict = judgePassword(password, { email: DEMO_EMAIL })
  if (!verdict.ok) throw new Error(`DEMO_PASSWORD ${verdict.reason}`)
}

/**
 * What the demo seed is: bump it when seedDemo changes what it makes, and
 * every sandbox seeds once more at its next start (seedDemo converges, so
 * that only adds what is new). 2: the activity feed's demo (issue 14).
 */
export const DEMO_SEED_VERSION = 2

/**
 * The demo at start (sandbox only): seeded when the demo tenant has not had
 * this version of it whole yet, then marked. A later start reads the mark and
 * seeds nothing — the walk over every demo item took about half a second of
 * each start. A start that dies half-way leaves no mark, so the next one
 * finishes the job. The start banner prints its sign-in (server/banner.ts).
 */
export default async function demoSeed(app: FastifyInstance, opts: { config: Config }) {
  // A DEMO_PASSWORD the policy refuses stops the start, seeded or not.
  checkDemoPassword(opts.config.demo.password)
  const seeded = await app.db
    .selectFrom('demo_seeds')
    .select('version')
    .where('tenant_id', '=', DEMO_TENANT_ID)
    .executeTakeFirst()
  if (seeded?.version === DEMO_SEED_VERSION) return
  await seedDemo({
    db: app.db,
    jobs: app.jobs,
    bank: app.providers.bank,
    config: opts.config,
    log: app.log,
  })
  await app.db
    .insertInto('demo_seeds')
    .values({ tenant_id: DEMO_TENANT_ID, version: DEMO_SEED_VERSION })
    .onConflict((oc) =>
      oc.column('tenant_id').doUpdateSet({ version: DEMO_SEED_VERSION, seeded_at: new Date() }),
    )
    .execute()
}
