import type { FastifyInstance } from 'fastify'
import type { Config } from '../../config.ts'
import { SumsubKyc } from '../../providers/kyc/sumsub.ts'
import type { VendorProbe } from '../developer/vendors.ts'

/**
 * The KYC provider for the vendors list (GET /api/v1/developer/vendors/list):
 * Sumsub asked a signed question it must answer 404 (see SumsubKyc.probe),
 * in the mode its app token's prefix names;
 * the sandbox, whose state is our own database, by a read of its table.
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
