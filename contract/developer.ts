import { type Static, Type } from '@sinclair/typebox'
import { API_KEY_HEADER, API_KEY_ROLES, type ApiKeyRole } from './api-key-roles.ts'
import { oneOf } from './enums.ts'
import { VISIBLE_CHARACTER } from './names.ts'
import { Page, PageQuery } from './pagination.ts'

export { API_KEY_HEADER, API_KEY_ROLES, type ApiKeyRole }

/** How many addresses or networks one key's allow-list holds at most. */
export const MAX_ALLOWED_IPS = 20

/** The longest rotation overlap (a week): past it, the old secret must go. */
export const MAX_ROTATION_OVERLAP_SECONDS = 604_800

/** Not blank once normalised (contract/names.ts): something visible. */
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: VISIBLE_CHARACTER })
const AllowedIps = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  maxItems: MAX_ALLOWED_IPS,
  description:
    'IPv4 or IPv6 addresses or CIDR networks the key may be used from; empty: from anywhere.',
})

/** A key as the list shows it: never its secret. */
export const ApiKey = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  role: oneOf(API_KEY_ROLES),
  /** `fpk_<public id>`: the start of the current secret, to tell keys apart. */
  prefix: Type.String(),
  enabled: Type.Boolean(),
  allowed_ips: Type.Array(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** After a rotation with an overlap: when the previous secret stops working. */
  previous_secret_expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
})
export type ApiKey = Static<typeof ApiKey>

/** The answer of create and rotate: the key and its secret, shown this once and never again. */
export const ApiKeyWithSecret = Type.Object({
  ...ApiKey.properties,
  secret: Type.String({ description: '`fpk_<public id>_<secret>`: send it as X-API-Key.' }),
})
export type ApiKeyWithSecret = Static<typeof ApiKeyWithSecret>

export const ApiKeyList = Page(ApiKey)
export type ApiKeyList = Static<typeof ApiKeyList>
export const ApiKeyListQuery = PageQuery

export const CreateApiKeyBody = Type.Object(
  { name: Name, role: oneOf(API_KEY_ROLES), allowed_ips: Type.Optional(AllowedIps) },
  { additionalProperties: false },
)
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>

export const RotateApiKeyBody = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    overlap_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_ROTATION_OVERLAP_SECONDS,
        description:
          'How long the old secret keeps working; default API_KEY_ROTATION_OVERLAP_SECONDS (0).',
      }),
    ),
  },
  { additionalProperties: false },
)
export type RotateApiKeyBody = Static<typeof RotateApiKeyBody>

export const UpdateApiKeyBody = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.Optional(Name),
    role: Type.Optional(oneOf(API_KEY_ROLES)),
    enabled: Type.Optional(Type.Boolean()),
    allowed_ips: Type.Optional(AllowedIps),
  },
  { additionalProperties: false },
)
export type UpdateApiKeyBody = Static<typeof UpdateApiKeyBody>

/** docs/product.md §1: the kinds of party a deployment relies on. */
export const VENDOR_KINDS = [
  'chain',
  'card_processor',
  'banking',
  'kyc',
  'messaging',
  'rates',
] as const
export type VendorKind = (typeof VENDOR_KINDS)[number]
export const VENDOR_MODES = ['sandbox', 'live'] as const
export type VendorMode = (typeof VENDOR_MODES)[number]
export const VENDOR_HEALTH = ['up', 'degraded', 'down'] as const
export type VendorHealth = (typeof VENDOR_HEALTH)[number]

/** One provider behind this deployment and how its last health check went. */
export const Vendor = Type.Object({
  kind: oneOf(VENDOR_KINDS),
  name: Type.String(),
  mode: oneOf(VENDOR_MODES),
  health: oneOf(VENDOR_HEALTH),
  checked_at: Type.String({ format: 'date-time' }),
})
export type Vendor = Static<typeof Vendor>

export const VendorList = Page(Vendor)
export type VendorList = Static<typeof VendorList>
