import type { KycConfig } from '../../kyc-config.ts'
import type { KycProvider } from './kyc.ts'
import { SandboxKyc } from './sandbox.ts'
import { SumsubKyc } from './sumsub.ts'

/** The provider KYC_PROVIDER names, built from its settings. */
export function createKycProvider(config: KycConfig): KycProvider {
  if (config.provider === 'sumsub' && config.sumsub) return new SumsubKyc(config.sumsub)
  return new SandboxKyc()
}
