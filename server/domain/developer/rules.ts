import { BlockList, isIP } from 'node:net'
import type { ApiKeyRole } from '../../../contract/developer.ts'

/**
 * Enabled keys one person may hold at once: enough for every integration and
 * environment, few enough that the developer page shows them all.
 */
export const MAX_ACTIVE_KEYS = 25

/**
 * What a call does, as far as an API key cares (server/route-policy.ts names it
 * for every route): reading, writing, moving money between the person's own
 * accounts, or sending money out of their reach (a withdrawal, a payout
 * destination, a card issued to an address) — `payout`.
 */
export type KeyAction = 'read' | 'write' | 'money' | 'payout'

/** Each role may do what the roles before it may (docs/product.md §6). */
const RANK: Record<ApiKeyRole, number> = { READ_ONLY: 0, DEVELOPER: 1, PRODUCTION: 2 }

/** Each action may be done where the actions before it are refused. */
const ACTION_RANK: Record<KeyAction, number> = { read: 0, write: 1, money: 2, payout: 3 }

/** The more guarded of two actions. */
export const stricterAction = (a: KeyAction, b: KeyAction): KeyAction =>
  ACTION_RANK[a] >= ACTION_RANK[b] ? a : b

/**
 * The least role that may do `action`: reading needs READ_ONLY, writing
 * DEVELOPER, moving money DEVELOPER in a sandbox deployment (its money is
 * play money) and PRODUCTION in a live one; a payout PRODUCTION everywhere.
 */
export function requiredRole(action: KeyAction, sandbox: boolean): ApiKeyRole {
  switch (action) {
    case 'read':
      return 'READ_ONLY'
    case 'write':
      return 'DEVELOPER'
    case 'money':
      return sandbox ? 'DEVELOPER' : 'PRODUCTION'
    case 'payout':
      return 'PRODUCTION'
  }
}

/** Why a key may not make a call: its role is too low, or it may be used from anywhere. */
export type KeyRefusal =
  | { kind: 'role'; required: ApiKeyRole }
  /** A payout needs a key bound to known addresses: a leaked key alone sends nothing out. */
  | { kind: 'allow_list' }

/** Undefined when the key may do `action`; else why not. */
export function refusal(
  key: { role: ApiKeyRole; allowListed: boolean },
  action: KeyAction,
  sandbox: boolean,
): KeyRefusal | undefined {
  const required = requiredRole(action, sandbox)
  if (RANK[key.role] < RANK[required]) return { kind: 'role', required }
  if (action === 'payout' && !key.allowListed) return { kind: 'allow_list' }
  return undefined
}

export interface FieldError {
  field: string
  message: string
}

/** An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is the IPv4 address it maps. */
function unmapped(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return match ? (match[1] as string) : address
}

/**
 * One allow-list entry in canonical form (lower case, no spaces, a bare
 * address without `/32`), or undefined when it is neither an IP address nor a
 * CIDR network with a prefix that fits its family.
 */
export function canonicalIpRule(entry: string): string | undefined {
  const [rawAddress, prefix, ...rest] = entry.trim().toLowerCase().split('/')
  if (rest.length > 0 || rawAddress === undefined) return undefined
  const address = unmapped(rawAddress)
  const family = isIP(address)
  if (family === 0) return undefined
  if (prefix === undefined) return address
  if (!/^\d{1,3}$/.test(prefix)) return undefined
  const bits = Number(prefix)
  const max = family === 4 ? 32 : 128
  if (bits > max) return undefined
  return bits === max ? address : `${address}/${bits}`
}

/** The canonical allow-list, or a field error per bad entry (`/body/allowed_ips/<i>`). */
export function parseAllowedIps(
  entries: readonly string[],
): { ok: true; rules: string[] } | { ok: false; errors: FieldError[] } {
  const rules: string[] = []
  const errors: FieldError[] = []
  entries.forEach((entry, index) => {
    const rule = canonicalIpRule(entry)
    if (rule === undefined) {
      errors.push({
        field: `/body/allowed_ips/${index}`,
        message: `"${entry}" is not an IP address or a CIDR network (e.g. 203.0.113.7 or 203.0.113.0/24).`,
      })
    } else if (!rules.includes(rule)) {
      rules.push(rule)
    }
  })
  return errors.length > 0 ? { ok: false, errors } : { ok: true, rules }
}

/** Whether a call from `ip` may use a key with this allow-list; an empty list allows any. */
export function ipAllowed(rules: readonly string[], ip: string): boolean {
  if (rules.length === 0) return true
  const address = unmapped(ip)
  const family = isIP(address)
  if (family === 0) return false
  const list = new BlockList()
  for (const rule of rules) {
    const [base, prefix] = rule.split('/') as [string, string | undefined]
    const ruleFamily = isIP(base) === 4 ? 'ipv4' : 'ipv6'
    if (prefix === undefined) list.addAddress(base, ruleFamily)
    else list.addSubnet(base, Number(prefix), ruleFamily)
  }
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6')
}
