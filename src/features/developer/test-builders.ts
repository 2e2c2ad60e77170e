import type { ApiKey, ApiKeyWithSecret, Vendor } from '../../../contract/developer.ts'

export { aPage } from '../../../tests/support/builders.ts'

export const KEY_ID = '0190f2a0-0000-7000-8000-000000000001'
export const SECRET = 'fpk_0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde'

export const anApiKey = (overrides: Partial<ApiKey> = {}): ApiKey => ({
  id: KEY_ID,
  name: 'Accounting export',
  role: 'READ_ONLY',
  prefix: 'fpk_0123456789abcdef',
  enabled: true,
  allowed_ips: [],
  created_at: '2026-11-01T09:00:00.000Z',
  updated_at: '2026-11-01T09:00:00.000Z',
  last_used_at: null,
  previous_secret_expires_at: null,
  ...overrides,
})

export const withSecret = (
  key: ApiKey = anApiKey(),
  secret: string = SECRET,
): ApiKeyWithSecret => ({ ...key, secret })

export const aVendor = (overrides: Partial<Vendor> = {}): Vendor => ({
  kind: 'rates',
  name: 'sandbox',
  mode: 'sandbox',
  health: 'up',
  checked_at: '2026-11-22T10:00:00.000Z',
  ...overrides,
})

/** One page of `rows` as the server cuts it, by the call's limit and offset. */
export const aPageOf = <T>(rows: T[], query: URLSearchParams) => {
  const limit = Number(query.get('limit') ?? 10)
  const offset = Number(query.get('offset') ?? 0)
  return {
    data: rows.slice(offset, offset + limit),
    total: rows.length,
    limit,
    offset,
    is_last_page: offset + limit >= rows.length,
  }
}
