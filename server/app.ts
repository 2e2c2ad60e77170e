import rateLimit from '@fastify/rate-limit'
import Fastify, { type FastifyInstance } from 'fastify'
import type { Config } from './config.ts'
import addressRoutes from './domain/addresses/routes.ts'
import authRoutes from './domain/auth/routes.ts'
import cardTransactionRoutes, {
  sandboxCardTransactionRoutes,
} from './domain/card-transactions/routes.ts'
import cardRoutes from './domain/cards/routes.ts'
import catalogRoutes from './domain/catalog/routes.ts'
import counterpartyRoutes from './domain/counterparties/routes.ts'
import sandboxDepositRoutes from './domain/deposits/routes.ts'
import fiatAccountRoutes, { fiatAccountV1Routes } from './domain/fiat-accounts/routes.ts'
import programRoutes from './domain/issuing/programs-routes.ts'
import locationRoutes from './domain/location/routes.ts'
import quoteRoutes from './domain/orders/quote-routes.ts'
import orderRoutes from './domain/orders/routes.ts'
import sandboxBankRoutes from './domain/orders/sandbox-routes.ts'
import contactRoutes from './domain/otp/contact-routes.ts'
import otpRoutes from './domain/otp/routes.ts'
import rateRoutes from './domain/rates/routes.ts'
import demoSeed from './domain/sandbox/demo-seed.ts'
import sandboxRoutes from './domain/sandbox/routes.ts'
import transactionRoutes, { transactionCsvRoutes } from './domain/transactions/routes.ts'
import userRoutes from './domain/user/routes.ts'
import walletRoutes from './domain/wallets/routes.ts'
import { apiScope, type RoutesPlugin } from './infra/api-scope.ts'
import auth from './infra/auth.ts'
import db from './infra/db.ts'
import errors from './infra/errors.ts'
import jobs from './infra/jobs.ts'
import json from './infra/json.ts'
import { loggerOptions } from './infra/logger.ts'
import messaging from './infra/messaging.ts'
import metrics from './infra/metrics.ts'
import openapi from './infra/openapi.ts'
import rates from './infra/rates.ts'
import security from './infra/security.ts'
import tenancy from './infra/tenancy.ts'
import web from './infra/web.ts'

export interface BuildOptions {
  /** Where logs go; pino's destination stream (tests capture it). */
  logStream?: NodeJS.WritableStream
  /** Extra routes mounted in a base, for tests of the base's own rules. */
  extraRoutes?: { v1?: RoutesPlugin[]; v2?: RoutesPlugin[] }
}

/** The whole server, composed: infrastructure first, then the two API bases, then the app. */
export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    trustProxy: true,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: true } },
  })

  await app.register(errors)
  await app.register(json)
  await app.register(security)
  await app.register(metrics)
  await app.register(openapi)
  await app.register(rateLimit, { global: false })
  await app.register(db, { config })
  await app.register(tenancy)
  await app.register(auth, { config })
  await app.register(messaging, { config })
  await app.register(rates, { config })
  await app.register(jobs, { config })

  app.get('/healthz', { schema: { hide: true } }, async () => {
    await app.db.selectFrom('tenants').select('id').limit(1).execute()
    return { status: 'ok' }
  })

  await app.register(
    apiScope('bearer', [
      authRoutes,
      userRoutes,
      locationRoutes,
      otpRoutes,
      contactRoutes,
      catalogRoutes,
      rateRoutes,
      walletRoutes,
      addressRoutes,
      transactionRoutes,
      fiatAccountRoutes,
      counterpartyRoutes,
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
      cardTransactionRoutes,
      fiatAccountV1Routes,
      quoteRoutes,
      orderRoutes,
      ...(options.extraRoutes?.v1 ?? []),
    ]),
    { prefix: '/api/v1', config },
  )

  // The sandbox's own routes exist only in sandbox mode: in production they answer 404.
  if (config.sandbox) {
    await app.register(sandboxRoutes, { prefix: '/api/sandbox' })
    await app.register(sandboxDepositRoutes, { prefix: '/api/sandbox', config })
    await app.register(sandboxBankRoutes, { prefix: '/api/sandbox', config })
    await app.register(sandboxCardTransactionRoutes, { prefix: '/api/sandbox' })
    if (config.demo.seed) await app.register(demoSeed, { config })
  }

  await app.register(web, { distDir: config.distDir })
  return app
}
