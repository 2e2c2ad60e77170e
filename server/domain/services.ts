import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Counter } from 'prom-client'
import type { Config } from '../config.ts'
import type { LagTolerant } from '../infra/db.ts'
import { isActivityReplicaMiss } from './activity/errors.ts'
import { ActivityService } from './activity/service.ts'
import { SeedStore } from './addresses/seed-store.ts'
import { AddressService } from './addresses/service.ts'
import { AuthService } from './auth/service.ts'
import { TelegramAuthService } from './auth/telegram.ts'
import { AUTO_TOP_UP_JOB, runAutoTopUp, topUpAfterClearing } from './auto-top-up/run-auto-top-up.ts'
import { AutoTopUpService } from './auto-top-up/service.ts'
import { DisputeService } from './card-disputes/service.ts'
import { CardProcessor } from './card-transactions/card-network.ts'
import { isCardTransactionReplicaMiss } from './card-transactions/errors.ts'
import { CardTransactionService } from './card-transactions/read-card-transactions.ts'
import { CardCrypto } from './cards/card-crypto.ts'
import { CARD_MONTHLY_FEE_JOB, CardService } from './cards/service.ts'
import { CatalogService } from './catalog/service.ts'
import { CounterpartyService } from './counterparties/service.ts'
import { DEPOSIT_JOB, DepositService } from './deposits/service.ts'
import { DeveloperService } from './developer/service.ts'
import { FiatAccountService, ProgramService } from './fiat-accounts/service.ts'
import { InsightsService } from './insights/service.ts'
import { KycService, SANDBOX_REVIEW_JOB } from './kyc/service.ts'
import { LockdownLinks } from './lockdown/links.ts'
import { LockdownService } from './lockdown/service.ts'
import { CONTACT_JOINED_JOB } from './newcomers.ts'
import { ORDER_JOB } from './orders/order-job.ts'
import { QuoteTokens } from './orders/quote-token.ts'
import { QuoteService } from './orders/quotes.ts'
import { OrderService } from './orders/service.ts'
import { OtpService } from './otp/service.ts'
import { PaymentRequestService } from './payment-requests/service.ts'
import { RatesService } from './rates/service.ts'
import { runSchedule, SCHEDULE_RUN_JOB } from './schedules/run-schedule.ts'
import { ScheduleService } from './schedules/service.ts'
import { TenantService } from './tenants/service.ts'
import { isTransactionReplicaMiss } from './transactions/errors.ts'
import { TransactionService } from './transactions/service.ts'
import { CLAIM_DELIVERY_JOB, CLAIM_RETURN_JOB, TransferService } from './transfers/service.ts'
import { UserService } from './user/service.ts'
import { WalletService } from './wallets/service.ts'
import { openStarterWallet } from './wallets/starter-wallet.ts'

/** The use cases more than one plugin calls, each built once on the providers it needs. */
export interface Services {
  /** Placing, reading and cancelling orders; the sandbox bank's transfers complete them. */
  orders: OrderService
  /** Firm quotes and the directions list. */
  quotes: QuoteService
  /** Identity verification: the person's, the sandbox reviewer's and the provider's webhook. */
  kyc: KycService
  /** One-time codes: sign-in, contact changes and step-up. */
  otp: OtpService
  /** Card issuing and its monthly fees. */
  cards: CardService
  /** The key pair card secrets travel under (its public half is published). */
  cardCrypto: CardCrypto
  /** The sandbox chain's deposits (its routes exist in sandbox mode only). */
  deposits: DepositService
  /** Paying people of the tenant, claimable transfers, finding people (issue 32). */
  transfers: TransferService
  /** Asking to be paid, and paying such a request once. */
  paymentRequests: PaymentRequestService
  /** Payments that repeat, and the job that runs each occurrence once. */
  schedules: ScheduleService
  /** "That wasn't me": the person's lockdown, and one tap on an alert (issue 30). */
  lockdown: LockdownService
  /** A balance card account's auto top-up; its job tops the account up after a clearing. */
  autoTopUp: AutoTopUpService
  /** Sign-up, sign-in and tokens: the routes', the codes' and the passkeys' one instance. */
  auth: AuthService
  /** Sign-in and sign-up with Telegram's init data, on `auth`. */
  telegramAuth: TelegramAuthService
  /** The tenant's configuration and its product switches. */
  tenants: TenantService
  /** The signed-in person's profile and contacts. */
  users: UserService
  /** Developer API keys, their roles and rotations. */
  developer: DeveloperService
  /** Wallets, opened and listed. */
  wallets: WalletService
  /** Deposit addresses, derived from the sealed seed. */
  addresses: AddressService
  /** Fiat accounts on the bank. */
  fiatAccounts: FiatAccountService
  /** The tenant's card programs. */
  programs: ProgramService
  /** Saved payees and their destinations. */
  counterparties: CounterpartyService
  /** The card network's messages (the sandbox plays the processor). */
  cardNetwork: CardProcessor
  /** Card payment disputes (issue 30). */
  disputes: DisputeService
  /** Chains and currencies, read from the replica. */
  catalog: CatalogService
  /** The rates the person sees, on the rates feed. */
  rates: RatesService
  /** Spending and balance insights. */
  insights: InsightsService
  /** Reads that tolerate replica lag: built once on the replica, asking the primary on a miss. */
  reads: {
    activity: LagTolerant<ActivityService>
    transactions: LagTolerant<TransactionService>
    /** The same history, counting the rows CSV exports read (a metric). */
    transactionExports: LagTolerant<TransactionService>
    cardTransactions: LagTolerant<CardTransactionService>
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services
  }
}

/**
 * The composition root: builds every service once, on `app.providers`, and registers the
 * jobs they run. Routes files take them from `app.services` and stay HTTP only; they build
 * none themselves (server/architecture.test.ts checks it).
 */
export default fp(
  async function services(app: FastifyInstance, opts: { config: Config }) {
    const { config } = opts
    const { bank, chain, kyc, messaging, networkFees } = app.providers
    // Identity sits below the wallets: a sign-up's starter wallet is handed in.
    const auth = new AuthService(app.db, app.tokens, config, openStarterWallet)
    const quoteTokens = new QuoteTokens(config.secrets.quoteKeys)
    const orders = new OrderService(
      app.db,
      { bank, chain },
      { maxConfirmations: config.sandboxChain.maxConfirmations, quoteTokens },
    )
    app.jobs.register(ORDER_JOB, orders.process)
    const verification = new KycService(app.db, kyc, app.jobs, config.kyc)
    // The sandbox's rules approve by name: they run only where they may decide.
    if (config.kyc.sandboxDecides) {
      app.jobs.register(SANDBOX_REVIEW_JOB, verification.sandboxReview)
    }
    const cardCrypto = new CardCrypto(config.secrets)
    const cards = new CardService(app.db, cardCrypto, {
      jobs: app.jobs,
      bank: app.providers.bank,
      shipping: app.providers.courier,
    })
    app.jobs.register(CARD_MONTHLY_FEE_JOB, cards.chargeMonthly)
    const deposits = new DepositService(app.db, app.jobs, config.sandboxChain)
    if (config.sandbox) app.jobs.register(DEPOSIT_JOB, deposits.step)
    const quotes = new QuoteService(app.db, app.rates, networkFees, {
      ttlSeconds: config.quoteTtlSeconds,
      tokens: quoteTokens,
    })
    const transfers = new TransferService(app.db, app.rates, {
      messaging,
      publicUrl: config.events.publicUrl,
    })
    app.jobs.register(CLAIM_DELIVERY_JOB, transfers.deliverClaimable)
    app.jobs.register(CLAIM_RETURN_JOB, transfers.returnUnclaimed)
    app.jobs.register(CONTACT_JOINED_JOB, transfers.claimForNewcomer)
    app.jobs.register(SCHEDULE_RUN_JOB, (job, context) =>
      runSchedule({ db: app.db, transfers, quotes, orders }, job, context),
    )
    app.jobs.register(AUTO_TOP_UP_JOB, (job, context) =>
      runAutoTopUp({ db: app.db, quotes, orders }, job, context),
    )
    const exportedRows = new Counter({
      name: 'wallet_transactions_csv_rows_total',
      help: 'Wallet transaction rows read by CSV exports',
      registers: [app.metrics.registry],
    })
    app.decorate('services', {
      autoTopUp: new AutoTopUpService(app.db),
      cards,
      cardCrypto,
      deposits,
      orders,
      quotes,
      transfers,
      paymentRequests: new PaymentRequestService(app.db, transfers, {
        publicUrl: config.events.publicUrl,
        botUsername: config.telegram.botUsername,
        miniAppName: config.telegram.miniAppName,
      }),
      schedules: new ScheduleService(app.db, quotes),
      kyc: verification,
      lockdown: new LockdownService(app.db, new LockdownLinks(config.secrets.refreshKey)),
      otp: new OtpService(app.db, messaging, auth, {
        ...config.otp,
        key: config.secrets.refreshKey,
      }),
      auth,
      telegramAuth: new TelegramAuthService(app.db, auth, config.telegram),
      tenants: new TenantService(app.db),
      users: new UserService(app.db),
      developer: new DeveloperService(app.db, {
        defaultOverlapSeconds: config.apiKeys.rotationOverlapSeconds,
      }),
      wallets: new WalletService(app.db),
      addresses: new AddressService(app.db, new SeedStore(config.secrets.addressSeedKey)),
      fiatAccounts: new FiatAccountService(app.db, bank),
      programs: new ProgramService(app.db),
      counterparties: new CounterpartyService(app.db),
      cardNetwork: new CardProcessor(app.db, cardCrypto, topUpAfterClearing),
      disputes: new DisputeService(app.db),
      catalog: new CatalogService(app.dbRead),
      rates: new RatesService(app.db, app.rates),
      insights: new InsightsService(app.db, app.rates),
      reads: {
        activity: app.lagTolerant((db) => new ActivityService(db), isActivityReplicaMiss),
        transactions: app.lagTolerant((db) => new TransactionService(db), isTransactionReplicaMiss),
        transactionExports: app.lagTolerant(
          (db) => new TransactionService(db, { onExportPage: (rows) => exportedRows.inc(rows) }),
          isTransactionReplicaMiss,
        ),
        cardTransactions: app.lagTolerant(
          (db) => new CardTransactionService(db),
          isCardTransactionReplicaMiss,
        ),
      },
    })
  },
  { name: 'services', dependencies: ['metrics', 'db', 'jobs', 'auth', 'rates', 'providers'] },
)
