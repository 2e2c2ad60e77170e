import Fastify, { type FastifyInstance, LogController } from 'fastify'
import type { Config } from './config.ts'
import activityRoutes from './domain/activity/routes.ts'
import addressRoutes from './domain/addresses/routes.ts'
import auth from './domain/auth/authenticate.ts'
import passwordRoutes, { passwordResetRoutes } from './domain/auth/password-routes.ts'
import authRoutes from './domain/auth/routes.ts'
import securityUseCases from './domain/auth/security.ts'
import securityRoutes, { passkeySignInRoutes } from './domain/auth/security-routes.ts'
import autoTopUpRoutes from './domain/auto-top-up/routes.ts'
import cardDisputeRoutes, { sandboxCardDisputeRoutes } from './domain/card-disputes/routes.ts'
import cardTransactionRoutes, {
  sandboxCardTransactionRoutes,
} from './domain/card-transactions/routes.ts'
import cardControlRoutes from './domain/cards/controls-routes.ts'
import cardRoutes from './domain/cards/routes.ts'
import catalogRoutes from './domain/catalog/routes.ts'
import counterpartyRoutes from './domain/counterparties/routes.ts'
import sandboxDepositRoutes from './domain/deposits/routes.ts'
import sandboxSepaCreditRoutes from './domain/deposits/sepa-credit-routes.ts'
import developerRoutes from './domain/developer/routes.ts'
import vendors from './domain/developer/vendors.ts'
import events from './domain/events/plugin.ts'
import { notificationRoutes, sandboxBotRoutes, webhookRoutes } from './domain/events/routes.ts'
import fiatAccountRoutes, { fiatAccountV1Routes } from './domain/fiat-accounts/routes.ts'
import insightRoutes from './domain/insights/routes.ts'
import programRoutes from './domain/issuing/programs-routes.ts'
import kycRoutes, { kycWebhookRoutes, sandboxKycRoutes } from './domain/kyc/routes.ts'
import locationRoutes from './domain/location/routes.ts'
import lockdownRoutes, { sandboxTelegramCallbackRoutes } from './domain/lockdown/routes.ts'
import quoteRoutes from './domain/orders/quote-routes.ts'
import orderRoutes from './domain/orders/routes.ts'
import sandboxBankRoutes from './domain/orders/sandbox-routes.ts'
import contactRoutes from './domain/otp/contact-routes.ts'
import otpRoutes from './domain/otp/routes.ts'
import paymentRequestRoutes from './domain/payment-requests/routes.ts'
import proofs from './domain/proofs/plugin.ts'
import proofRoutes, { myProofRoutes } from './domain/proofs/routes.ts'
import rateRoutes from './domain/rates/routes.ts'
import demoSeed from './domain/sandbox/demo-seed.ts'
import sandboxRoutes from './domain/sandbox/routes.ts'
import scheduleRoutes from './domain/schedules/routes.ts'
import services from './domain/services.ts'
import statements from './domain/statements/plugin.ts'
import receiptRoutes, { receiptLinkRoutes } from './domain/statements/receipt-routes.ts'
import statementRoutes, { statementVerifyRoutes } from './domain/statements/routes.ts'
import productGate from './domain/tenants/product-gate.ts'
import tenantRoutes from './domain/tenants/routes.ts'
import tenantSeed from './domain/tenants/seed.ts'
import transactionRoutes, { transactionCsvRoutes } from './domain/transactions/routes.ts'
import transferRoutes from './domain/transfers/routes.ts'
import userRoutes from './domain/user/routes.ts'
import walletRoutes from './domain/wallets/routes.ts'
import { apiScope, type RoutesPlugin } from './infra/api-scope.ts'
import type { Database } from './infra/db/database.ts'
import db from './infra/db.ts'
import errors, { clientErrorHandler, frameworkErrors } from './infra/errors.ts'
import jobs from './infra/jobs.ts'
import json from './infra/json.ts'
import { lazySchemaCompilers } from './infra/lazy-schemas.ts'
import { type LogDestination, loggerOptions, requestLog } from './infra/logger.ts'
import metrics from './infra/metrics.ts'
import openapi from './infra/openapi.ts'
import rateLimits from './infra/rate-limit.ts'
import rates from './infra/rates.ts'
import readiness from './infra/readiness.ts'
import security from './infra/security.ts'
import statistics from './infra/statistics.ts'
import tenancy from './infra/tenancy.ts'
import { validatorCompiler } from './infra/validation.ts'
import web from './infra/web.ts'
import providers from './providers/plugin.ts'
import routeGuards from './route-guards.ts'
import { ROUTE_POLICY, type RoutePolicies } from './route-policy.ts'

export interface BuildOptions {
  /** Where logs go, instead of stdout: main.ts's LogDestination, or a test's capture. */
  logStream?: NodeJS.WritableStream | LogDestination
  /** Extra routes mounted in a base, for tests of the base's own rules. */
  extraRoutes?: { v1?: RoutesPlugin[]; v2?: RoutesPlugin[] }
  /** Their entries beside route-policy.ts's (`METHOD /api/v2/path`): no route goes unguarded. */
  extraPolicies?: RoutePolicies
  /** How slow a vendor's answer may be before it is degraded (default DEGRADED_MS, 1 s). */
  vendorDegradedMs?: number
  /**
   * The database, opened by the caller instead of from config (a test's copy of a
   * migrated template, server/test-support.ts); the app migrates it and closes it.
   */
  database?: Database
}

/** TRUST_PROXY as a hop count: believe the nearest `hops` proxies' X-Forwarded-For entries. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops

/** The whole server, composed: infrastructure first, then the two API bases, then the app. */
export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    // One line per request instead of two (infra/logger.ts requestLog).
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy:
      typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Opening the database runs the migrations (and generates keys on a fresh DATA_DIR): on a
    // busy machine that outlasts Fastify's 10 s default for one plugin.
    pluginTimeout: 120_000,
    // Every answer is problem+json, Fastify's own included (infra/errors.ts).
    frameworkErrors,
    clientErrorHandler,
    return503OnClosing: false,
    // Answers serialise through their schemas, each compiled at its route's first call.
    schemaController: { compilersFactory: lazySchemaCompilers() },
  })
  // Bodies are never coerced; query text converts numeric spellings only (infra/validation.ts).
  app.setValidatorCompiler(validatorCompiler())

  await app.register(errors)
  await app.register(requestLog)
  await app.register(json)
  await app.register(security, { config })
  await app.register(metrics, { node: config.nodeName })
  await app.register(openapi)
  await app.register(db, { config, database: options.database })
  await app.register(tenantSeed)
  await app.register(rateLimits)
  await app.register(tenancy)
  await app.register(auth, { config })
  await app.register(productGate)
  await app.register(jobs, { config })
  await app.register(rates, { config })
  // Every outside party picked from the config, then the services on them: each built once.
  await app.register(providers, { config })
  await app.register(services, { config })
  await app.register(securityUseCases, { config })
  // Every API route's guard, from the one table, applied as the routes below register.
  await app.register(routeGuards, {
    config,
    policies: { ...ROUTE_POLICY, ...options.extraPolicies },
  })
  await app.register(vendors, { config, degradedMs: options.vendorDegradedMs })
  await app.register(events, { config })
  await app.register(statements, { config })
  await app.register(proofs, { config })
  await app.register(readiness, { node: config.nodeName })
  await app.register(statistics, { config })

  app.get('/healthz', { schema: { hide: true } }, async () => {
    await app.db.selectFrom('tenants').select('id').limit(1).execute()
    return { status: 'ok' }
  })

  await app.register(
    apiScope('bearer', [
      authRoutes,
      passkeySignInRoutes,
      securityRoutes,
      passwordResetRoutes,
      passwordRoutes,
      userRoutes,
      locationRoutes,
      tenantRoutes,
      otpRoutes,
      contactRoutes,
      catalogRoutes,
      rateRoutes,
      walletRoutes,
      addressRoutes,
      transactionRoutes,
      activityRoutes,
      fiatAccountRoutes,
      counterpartyRoutes,
      notificationRoutes,
      statementRoutes,
      receiptRoutes,
      insightRoutes,
      myProofRoutes,
      transferRoutes,
      paymentRequestRoutes,
      scheduleRoutes,
      lockdownRoutes,
      ...(options.extraRoutes?.v2 ?? []),
    ]),
    {
      prefix: '/api/v2',
      config,
    },
  )
  await app.register(
    apiScope('raw', [
      transactionCsvRoutes,
      programRoutes,
      cardRoutes,
      cardControlRoutes,
      cardTransactionRoutes,
      cardDisputeRoutes,
      fiatAccountV1Routes,
      autoTopUpRoutes,
      quoteRoutes,
      orderRoutes,
      kycRoutes,
      developerRoutes,
      webhookRoutes,
      ...(options.extraRoutes?.v1 ?? []),
    ]),
    { prefix: '/api/v1', config },
  )
  // Sumsub calls it with neither tenant nor token: outside the v1 scope, checked by its digest.
  await app.register(kycWebhookRoutes, { prefix: '/api/v1', config })
  // Whoever holds a statement checks it with neither tenant nor sign-in: rate-limited per address.
  await app.register(statementVerifyRoutes, { prefix: '/api', config })
  // A receipt's link is fetched by Telegram itself: no tenant, no sign-in, limited per address.
  await app.register(receiptLinkRoutes, { prefix: '/api', config })
  // Anyone checks a tenant's proof of balances: its roots and key name the tenant in the path.
  await app.register(proofRoutes, { prefix: '/api' })

  // The sandbox's own routes exist only in sandbox mode: in production they answer 404.
  if (config.sandbox) {
    await app.register(sandboxRoutes, { prefix: '/api/sandbox' })
    await app.register(sandboxBotRoutes, { prefix: '/api/sandbox' })
    await app.register(sandboxTelegramCallbackRoutes, { prefix: '/api/sandbox' })
    await app.register(sandboxDepositRoutes, { prefix: '/api/sandbox', config })
    await app.register(sandboxBankRoutes, { prefix: '/api/sandbox', config })
    await app.register(sandboxSepaCreditRoutes, { prefix: '/api/sandbox' })
    await app.register(sandboxCardTransactionRoutes, { prefix: '/api/sandbox', config })
    await app.register(sandboxCardDisputeRoutes, { prefix: '/api/sandbox' })
    await app.register(sandboxKycRoutes, { prefix: '/api/sandbox', config })
    if (config.demo.seed) await app.register(demoSeed, { config })
  }

  await app.register(web, { distDir: config.distDir })
  return app
}
