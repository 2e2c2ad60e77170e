import { DomainError } from '../failure.ts'
import type { Fault } from './rules.ts'

/** The failures of the tenant use cases; routes.ts and the CLI each word them. */
export type TenantFailure =
  /** No tenant with this id. */
  | { kind: 'TENANT_NOT_FOUND'; tenantId: string }
  /** `create --id` named an id a tenant has already. */
  | { kind: 'TENANT_EXISTS'; tenantId: string }
  /** Settings that fail rules.resolveSettings, every fault at once. */
  | { kind: 'INVALID_SETTINGS'; faults: Fault[] }

export class TenantError extends DomainError<TenantFailure> {}
