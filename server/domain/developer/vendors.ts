import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import nodemailer from 'nodemailer'
import {
  VENDOR_KINDS,
  type Vendor,
  type VendorHealth,
  type VendorKind,
  type VendorMode,
} from '../../../contract/developer.ts'
import type { Config } from '../../config.ts'
import { SumsubKyc } from '../../providers/kyc/sumsub.ts'

/** One party the deployment relies on, with a probe that asks it whether it works. */
export interface VendorProbe {
  kind: VendorKind
  name: string
  mode: VendorMode
  /**
   * Resolves when the party answered (with 'degraded' when it says it is
   * struggling; anything else is a good answer); throws when it did not.
   */
  check: () => Promise<unknown>
}

/** An answer slower than this is a degraded vendor; none within TIMEOUT_MS, a down one. */
export const DEGRADED_MS = 1_000
export const TIMEOUT_MS = 5_000
/** How long one check's result stands: the list is cheap to ask for, the parties are not. */
export const CHECK_TTL_MS = 30_000

interface Checked {
  health: VendorHealth
  checkedAt: Date
}

/**
 * The providers behind this deployment. The infrastructure registers the ones
 * it wires (vendorDefaults below); a provider wired later may call
 * `app.vendors.register` with its own probe.
 */
export class VendorRegistry {
  readonly #probes: VendorProbe[] = []
  readonly #results = new Map<VendorProbe, { startedAt: number; result: Promise<Checked> }>()

  /** `degradedMs`: an answer slower than this is degraded (default DEGRADED_MS). */
  constructor(private readonly options: { degradedMs?: number } = {}) {}

  register(probe: VendorProbe): void {
    this.#probes.push(probe)
  }

  /** Every vendor with its health, in SPEC order of kinds; checks run at once, in parallel. */
  async list(): Promise<Vendor[]> {
    const order = (probe: VendorProbe) => VENDOR_KINDS.indexOf(probe.kind)
    const probes = [...this.#probes].sort((a, b) => order(a) - order(b))
    const results = await Promise.all(probes.map((probe) => this.#checked(probe)))
    return probes.map((probe, index) => {
      const result = results[index] as Checked
      return {
        kind: probe.kind,
        name: probe.name,
        mode: probe.mode,
        health: result.health,
        checked_at: result.checkedAt.toISOString(),
      }
    })
  }

  /** The standing result, or a fresh check; concurrent askers share one check. */
  #checked(probe: VendorProbe): Promise<Checked> {
    const standing = this.#results.get(probe)
    if (standing && Date.now() - standing.startedAt < CHECK_TTL_MS) return standing.result
    const result = runCheck(probe, this.options.degradedMs ?? DEGRADED_MS)
    this.#results.set(probe, { startedAt: Date.now(), result })
    return result
  }
}

async function runCheck(probe: VendorProbe, degradedMs: number): Promise<Checked> {
  const started = Date.now()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer')), TIMEOUT_MS)
  })
  try {
    const said = await Promise.race([probe.check(), timeout])
    const slow = Date.now() - started > degradedMs
    return { health: said === 'degraded' || slow ? 'degraded' : 'up', checkedAt: new Date() }
  } catch {
    return { health: 'down', checkedAt: new Date() }
  } finally {
    clearTimeout(timer)
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    vendors: VendorRegistry
  }
}

/**
 * The providers this server wires, each with a real question to it: the
 * rates provider prices EUR, the mail transport verifies its SMTP login (or
 * the sandbox outbox answers), the bank reports a payout's state, the chain a
 * transaction's confirmations, the card processor's store answers, the KYC
 * provider takes a signed question (Sumsub) or its table answers (sandbox).
 */
export function vendorDefaults(app: FastifyInstance, config: Config): VendorProbe[] {
  const { bank, chain } = app.providers
  const outbox = async () => {
    await app.db.selectFrom('sandbox_outbox').select('id').limit(1).execute()
  }
  const smtpUrl = config.smtpUrl
  return [
    {
      kind: 'chain',
      name: chain.name,
      mode: 'sandbox',
      check: async () => {
        const now = new Date()
        // A withdrawal broadcast this instant: any chain answers its confirmations (none yet).
        const probe = {
          chain: 'ethereum' as const,
          txHash: `0x${'0'.repeat(64)}`,
          broadcastAt: now,
        }
        const progress = await chain.progress(probe, now)
        if (!(progress.confirmations >= 0)) throw new Error('no confirmations count')
      },
    },
    {
      kind: 'card_processor',
      name: 'sandbox',
      mode: 'sandbox',
      check: async () => {
        await app.db.selectFrom('card_transactions').select('id').limit(1).execute()
      },
    },
    {
      kind: 'banking',
      name: bank.name,
      mode: 'sandbox',
      check: async () => {
        const now = new Date()
        await bank.payoutStatus({ reference: `SBX-S-${'0'.repeat(20)}`, submittedAt: now }, now)
      },
    },
    smtpUrl
      ? smtpProbe(smtpUrl)
      : { kind: 'messaging', name: 'sandbox', mode: 'sandbox', check: outbox },
    kycVendorProbe(app, config),
    {
      kind: 'rates',
      name: app.rates.name,
      mode: app.rates.name === 'sandbox' ? 'sandbox' : 'live',
      check: async () => {
        const quote = await app.rates.quote('USD', ['EUR'])
        if (!quote.rates.has('EUR')) throw new Error('no EUR price')
      },
    },
  ]
}

/**
 * The KYC provider: Sumsub asked a signed question it must answer 404 (see
 * SumsubKyc.probe), in the mode its app token's prefix names; the sandbox,
 * whose state is our own database, by a read of its table.
 */
export function kycVendorProbe(app: FastifyInstance, config: Config): VendorProbe {
  const sumsub = config.kyc.provider === 'sumsub' && config.kyc.sumsub
  if (sumsub) {
    const provider = new SumsubKyc(sumsub)
    // Sumsub's sandbox app tokens start with "sbx:", its production ones with "prd:".
    const mode = sumsub.appToken.startsWith('sbx:') ? 'sandbox' : 'live'
    return { kind: 'kyc', name: 'sumsub', mode, check: () => provider.probe() }
  }
  return {
    kind: 'kyc',
    name: 'sandbox',
    mode: 'sandbox',
    check: () => app.db.selectFrom('kyc_verifications').select('id').limit(1).execute(),
  }
}

/** The SMTP server behind e-mail: it must greet us and take our login (nodemailer's verify). */
export function smtpProbe(url: string): VendorProbe {
  return {
    kind: 'messaging',
    name: 'smtp',
    mode: 'live',
    check: async () => {
      const transport = nodemailer.createTransport({
        url,
        connectionTimeout: TIMEOUT_MS,
        greetingTimeout: TIMEOUT_MS,
      })
      try {
        await transport.verify()
      } finally {
        transport.close()
      }
    },
  }
}

/**
 * `app.vendors`: registered after db, messaging and rates, before the routes.
 * `degradedMs` overrides DEGRADED_MS (tests whose probes do real I/O on a busy machine).
 */
export default fp(
  async function vendors(app: FastifyInstance, opts: { config: Config; degradedMs?: number }) {
    const registry = new VendorRegistry({ degradedMs: opts.degradedMs })
    for (const probe of vendorDefaults(app, opts.config)) registry.register(probe)
    app.decorate('vendors', registry)
  },
  { name: 'vendors', dependencies: ['db', 'rates', 'providers'] },
)
