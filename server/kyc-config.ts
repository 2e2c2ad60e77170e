import { KYC_PROVIDERS, type KycProviderName } from '../contract/kyc.ts'

type Env = Record<string, string | undefined>

/** Identity verification's settings. Parsed with the rest of the config (config.ts). */
export interface KycConfig {
  /** KYC_PROVIDER: sandbox (decides by rules or through /api/sandbox/kyc/decision) or sumsub. */
  provider: KycProviderName
  /** SANDBOX_KYC_MS: milliseconds after a sandbox submission before the rules decide it. */
  sandboxDecisionMs: number
  /**
   * Whether the sandbox provider takes submissions and its rules decide them:
   * always with SANDBOX=true; with SANDBOX=false only when KYC_PROVIDER=sandbox
   * is set explicitly together with KYC_SANDBOX_IN_PRODUCTION=true. Otherwise
   * a production deployment without a real provider verifies nobody.
   */
  sandboxDecides: boolean
  /** SUMSUB_LEVEL_NAME: the verification level asked for (the sandbox names its level the same). */
  levelName: string
  /** Seconds an SDK access token lives (SUMSUB_TOKEN_TTL). */
  tokenTtlSeconds: number
  /** Set when provider is sumsub; every field is then required. */
  sumsub:
    | {
        /** SUMSUB_BASE_URL, default https://api.sumsub.com */
        baseUrl: string
        /** SUMSUB_APP_TOKEN and SUMSUB_SECRET_KEY: the app token pair requests are signed with. */
        appToken: string
        secretKey: string
        /** SUMSUB_WEBHOOK_SECRET: the key webhook digests (X-Payload-Digest) are checked with. */
        webhookSecret: string
        /** SUMSUB_WEBHOOK_DIGEST_ALG: the one X-Payload-Digest-Alg accepted (HMAC_SHA256_HEX). */
        webhookDigestAlg: SumsubDigestAlg
        /** SUMSUB_WEBSDK_ORIGIN: the origin the WebSDK frames its flow from (CSP frame-src). */
        websdkOrigin: string
      }
    | undefined
}

/** The webhook digest algorithms Sumsub can be set to sign with. */
export const SUMSUB_DIGEST_ALGS = ['HMAC_SHA256_HEX', 'HMAC_SHA512_HEX', 'HMAC_SHA1_HEX'] as const
export type SumsubDigestAlg = (typeof SUMSUB_DIGEST_ALGS)[number]

/** KYC_PROVIDER and the provider's settings; every problem goes to `problems`. */
export function kycConfig(
  env: Env,
  problems: string[],
  int: (name: string, fallback: number, min: number, max: number) => number,
  sandbox: boolean,
): KycConfig {
  const provider = env.KYC_PROVIDER || 'sandbox'
  if (!(KYC_PROVIDERS as readonly string[]).includes(provider)) {
    problems.push(`KYC_PROVIDER must be one of ${KYC_PROVIDERS.join(', ')}`)
  }
  // The sandbox's rules approve anyone whose name lacks "reject": in
  // production that only runs when asked for by name and acknowledged.
  const sandboxInProduction = env.KYC_SANDBOX_IN_PRODUCTION === 'true'
  if (!sandbox && env.KYC_PROVIDER === 'sandbox' && !sandboxInProduction) {
    problems.push(
      'KYC_PROVIDER=sandbox with SANDBOX=false approves anyone by rules: set KYC_PROVIDER=sumsub, or KYC_SANDBOX_IN_PRODUCTION=true to accept that',
    )
  }
  const sandboxDecides =
    provider === 'sandbox' && (sandbox || (env.KYC_PROVIDER === 'sandbox' && sandboxInProduction))
  const baseUrl = env.SUMSUB_BASE_URL || 'https://api.sumsub.com'
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) {
    problems.push('SUMSUB_BASE_URL must be an http(s) URL')
  } else if (!sandbox && !baseUrl.startsWith('https://')) {
    problems.push('SUMSUB_BASE_URL must be https:// unless SANDBOX=true (it carries the app token)')
  }
  const websdkOrigin = env.SUMSUB_WEBSDK_ORIGIN || 'https://in.sumsub.com'
  if (!/^https:\/\/[a-z0-9.-]+(:\d+)?$/i.test(websdkOrigin)) {
    problems.push('SUMSUB_WEBSDK_ORIGIN must be an https origin, e.g. https://in.sumsub.com')
  }
  const digestAlg = env.SUMSUB_WEBHOOK_DIGEST_ALG || 'HMAC_SHA256_HEX'
  if (!(SUMSUB_DIGEST_ALGS as readonly string[]).includes(digestAlg)) {
    problems.push(`SUMSUB_WEBHOOK_DIGEST_ALG must be one of ${SUMSUB_DIGEST_ALGS.join(', ')}`)
  }
  let sumsub: KycConfig['sumsub']
  if (provider === 'sumsub') {
    const missing = ['SUMSUB_APP_TOKEN', 'SUMSUB_SECRET_KEY', 'SUMSUB_WEBHOOK_SECRET'].filter(
      (name) => !env[name],
    )
    if (missing.length > 0) problems.push(`KYC_PROVIDER=sumsub needs ${missing.join(', ')}`)
    sumsub = {
      baseUrl: baseUrl.replace(/\/+$/, ''),
      appToken: env.SUMSUB_APP_TOKEN ?? '',
      secretKey: env.SUMSUB_SECRET_KEY ?? '',
      webhookSecret: env.SUMSUB_WEBHOOK_SECRET ?? '',
      webhookDigestAlg: digestAlg as SumsubDigestAlg,
      websdkOrigin,
    }
  }
  const levelName = env.SUMSUB_LEVEL_NAME || 'basic-kyc-level'
  return {
    provider: provider as KycConfig['provider'],
    sandboxDecisionMs: int('SANDBOX_KYC_MS', 3_000, 0, 3_600_000),
    sandboxDecides,
    levelName,
    tokenTtlSeconds: int('SUMSUB_TOKEN_TTL', 1_800, 60, 86_400),
    sumsub,
  }
}
