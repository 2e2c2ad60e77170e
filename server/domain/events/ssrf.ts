import { lookup as dnsLookup } from 'node:dns/promises'
import type { LookupFunction } from 'node:net'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/**
 * Server-side request forgery guards for webhook URLs. Outside the sandbox a
 * webhook goes only to https on a public address: never loopback, private,
 * link-local (169.254.169.254, the cloud metadata service), carrier-grade NAT,
 * multicast or reserved space. Checked when an endpoint is registered and
 * again at every delivery, after DNS, on the address actually connected to —
 * so a name that resolves somewhere else later (DNS rebinding) is caught too.
 */

/** Resolves a host name to every address it has. */
export type Resolve = (host: string) => Promise<string[]>

export const systemResolve: Resolve = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address)

/** A globally routable unicast address (IPv4-mapped IPv6 judged as its IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  return ipaddr.process(address).range() === 'unicast'
}

export type UrlRefusal =
  | 'invalid'
  | 'not_https'
  | 'credentials'
  | 'unresolvable'
  | 'private_address'

export interface UrlPolicy {
  /** The sandbox lets http and local receivers through (tests, a developer's laptop). */
  sandbox: boolean
  resolve?: Resolve
}

/** The hostname without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1')

/** Why a webhook URL may not be used, or undefined when it may. */
export async function refuseUrl(raw: string, policy: UrlPolicy): Promise<UrlRefusal | undefined> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'invalid'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'invalid'
  if (url.username || url.password) return 'credentials'
  if (policy.sandbox) return undefined
  if (url.protocol !== 'https:') return 'not_https'
  const host = bareHost(url)
  let addresses: string[]
  if (isIP(host)) addresses = [host]
  else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host)
    } catch {
      return 'unresolvable'
    }
  }
  if (addresses.length === 0) return 'unresolvable'
  return addresses.every(isPublicAddress) ? undefined : 'private_address'
}

export class RefusedAddressError extends Error {
  constructor(host: string) {
    super(`${host} resolves to an address webhooks may not reach`)
    this.name = 'RefusedAddressError'
  }
}

/**
 * A `lookup` for http(s).request that resolves the name and refuses to
 * connect unless every address is public: the check at connection time.
 */
export function guardedLookup(resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0) {
          callback(
            Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }),
            '',
            4,
          )
          return
        }
        if (!addresses.every(isPublicAddress)) {
          callback(new RefusedAddressError(hostname), '', 4)
          return
        }
        const entries = addresses.map((address) => ({ address, family: isIP(address) }))
        if (options.all) callback(null, entries)
        else callback(null, entries[0]!.address, entries[0]!.family)
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    )
  }
}
