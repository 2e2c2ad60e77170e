import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config.ts'
import {
  CARD_DELIVERY_JOB,
  SandboxCourier,
  type ShippingProvider,
} from '../domain/cards/shipping.ts'
import type { BankingProvider } from './banking/banking.ts'
import { SandboxBank } from './banking/sandbox.ts'
import { type NetworkFeeEstimator, SandboxNetworkFees } from './chain/fees.ts'
import type { ChainPayouts } from './chain/payouts.ts'
import { SandboxChainPayouts } from './chain/sandbox-payouts.ts'
import type { KycProvider } from './kyc/kyc.ts'
import { createKycProvider } from './kyc/select-provider.ts'
import { byChannel, type MessagingProvider } from './messaging/messaging.ts'
import { SandboxMessaging } from './messaging/sandbox.ts'
import { SmtpMessaging } from './messaging/smtp.ts'
import type { ReservesProvider } from './reserves/reserves.ts'
import { SandboxCustody } from './reserves/sandbox.ts'

/** Every outside party the server talks to, each picked once from the config. */
export interface Providers {
  /** Pays out and collects fiat (SEPA, SWIFT). Only the sandbox bank exists so far. */
  bank: BankingProvider
  /** Broadcasts withdrawals and counts their confirmations. Only the sandbox chain so far. */
  chain: ChainPayouts
  /**
   * Moves a physical card's delivery: the sandbox courier in sandbox mode. In
   * production mode no courier is wired in yet: a physical card stays ORDERED
   * (so it cannot be activated) until a real one moves its delivery.
   */
  courier: ShippingProvider | undefined
  /** Verifies identities: the one KYC_PROVIDER names (Sumsub or the sandbox). */
  kyc: KycProvider
  /** Prices a withdrawal's network fee. */
  networkFees: NetworkFeeEstimator
  /** Sends one-time codes by e-mail and SMS. */
  messaging: MessagingProvider
  /**
   * Attests what the platform holds, for the proof of balances: the sandbox's
   * custody in sandbox mode; no custodian is wired in otherwise (roots are
   * published without reserves).
   */
  reserves: ReservesProvider | undefined
}

declare module 'fastify' {
  interface FastifyInstance {
    providers: Providers
  }
}

/**
 * E-mail goes through SMTP with SMTP_URL; everything else (all of it without
 * SMTP_URL, and SMS always — there is no SMS gateway adapter yet) goes to the
 * sandbox outbox. A failure is logged by channel, never by recipient.
 */
function pickMessaging(app: FastifyInstance, config: Config): MessagingProvider {
  const { smtpUrl, mailFrom } = config
  const sandbox = new SandboxMessaging(app.db)
  const provider = byChannel({
    email: smtpUrl ? new SmtpMessaging({ url: smtpUrl, from: mailFrom }) : sandbox,
    sms: sandbox,
  })
  app.addHook('onClose', () => provider.close?.())
  return {
    async send(message) {
      try {
        await provider.send(message)
      } catch (error) {
        // The channel, not the recipient (personal data); the gateway's reason is in err.
        app.log.warn({ err: error, channel: message.channel }, 'message not delivered')
        throw error
      }
    },
  }
}

/**
 * Picks each provider from the config, once, and decorates the app with
 * them: a service takes the ones it needs from `app.providers`, and a real
 * adapter (a bank's, say) is one new file and one line here.
 */
export default fp(
  async function providers(app: FastifyInstance, opts: { config: Config }) {
    const { config } = opts
    const courier = config.sandbox
      ? new SandboxCourier(app.db, app.jobs, config.sandboxShipping.stepMs)
      : undefined
    if (courier) app.jobs.register(CARD_DELIVERY_JOB, courier.deliver)
    const chosen: Providers = {
      bank: new SandboxBank(config.sandboxBank),
      chain: new SandboxChainPayouts({ blockMs: config.sandboxChain.blockMs }),
      courier,
      kyc: createKycProvider(config.kyc),
      networkFees: new SandboxNetworkFees(),
      messaging: pickMessaging(app, config),
      reserves: config.sandbox ? new SandboxCustody(app.db) : undefined,
    }
    app.decorate('providers', chosen)
    app.log.info(
      {
        bank: chosen.bank.name,
        chain: chosen.chain.name,
        courier: courier ? 'sandbox' : 'none',
        kyc: chosen.kyc.name,
        email: config.smtpUrl ? 'smtp' : 'sandbox',
        sms: 'sandbox',
        reserves: chosen.reserves?.name ?? 'none',
      },
      'providers chosen',
    )
  },
  { name: 'providers', dependencies: ['db', 'jobs'] },
)
