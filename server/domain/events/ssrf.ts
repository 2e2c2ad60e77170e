import { lookup as dnsLookup } from 'node:dns/promises'
import type { LookupFunction } from 'node:net'
import { isIP, isIPv4, isIPv6 } from 'node:net'
import ipaddr from 'ipaddr.js'

/**
 * Server-side request forgery guards for webhook and push URLs. Outside the
 * sandbox a webhook goes only to https on a public address: never loopback,
 * private, link-local (169.254.169.254, the cloud metadata service),
 * carrier-grade NAT, multicast or reserved space, in IPv4 or any IPv6 form. Checked when an endpoint is registered and
 * again at every delivery, after DNS, on the address actually connected to —
 * so a name that resolves somewhere else later (DNS rebinding) is caught too.
 */

/** Resolves a host name to every address it has. */
export type Resolve = (host: string) => Promise<string[]>

export const systemResolve: Resolve = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address)

/** An IPv4 address webhooks may reach: unicast, none of ipaddr.js's special ranges. */
const publicIPv4 = (address: ipaddr.IPv4) => address.range() === 'unicast'

const cidr = (text: string) => ipaddr.parseCIDR(text) as [ipaddr.IPv6, number]
/** Global unicast (2000::/3): no other IPv6 space reaches the public internet. */
const GLOBAL_UNICAST = cidr('2000::/3')
/**
 * Inside it, the parts that are not somewhere on the internet: IETF protocol
 * assignments (Teredo, benchmarking, ORCHID…), documentation (both blocks).
 */
const NOT_GLOBAL = ['2001::/23', '2001:db8::/32', '3fff::/20'].map(cidr)
/** Prefixes that carry an IPv4 address in their last 32 bits (NAT64, RFC 6052)… */
const NAT64 = cidr('64:ff9b::/96')
/** …or in bits 16–47 (6to4, RFC 3056). */
const SIX_TO_FOUR = cidr('2002::/16')

/**
 * An IPv6 address read from the text the URL standard writes it as (no dotted
 * quad), or undefined when it is none. ipaddr.js alone reads `::8.8.8.8` (an
 * IPv4-compatible address) as the mapped `::ffff:8.8.8.8`.
 */
function canonicalIPv6(address: string): ipaddr.IPv6 | undefined {
  if (!isIPv6(address)) return undefined
  try {
    const host = new URL(`http://[${address}]/`).hostname
    return ipaddr.IPv6.parse(host.slice(1, -1))
  } catch {
    // A zone id ("fe80::1%eth0") makes no URL: nothing public has one.
    return undefined
  }
}

function embeddedIPv4(address: ipaddr.IPv6, firstByte: number): ipaddr.IPv4 {
  const bytes = address.toByteArray()
  return new ipaddr.IPv4(bytes.slice(firstByte, firstByte + 4))
}

/**
 * A globally routable unicast address. IPv6 is judged by what it is, not by
 * ipaddr.js's `range()`, which calls anything it has no name for "unicast" —
 * `::7f00:1` (the IPv4-compatible `::127.0.0.1`) among them. So: an address
 * carrying an IPv4 one (mapped `::ffff:a.b.c.d`, NAT64, 6to4) is judged as
 * that IPv4 address; anything else must be global unicast (2000::/3) outside
 * the blocks that are not on the internet. Loopback, unspecified,
 * IPv4-compatible, unique-local (fc00::/7), link-local (fe80::/10) and
 * multicast (ff00::/8) all lie outside 2000::/3.
 */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return publicIPv4(ipaddr.IPv4.parse(address))
  const v6 = canonicalIPv6(address)
  if (!v6) return false
  if (v6.isIPv4MappedAddress()) return publicIPv4(v6.toIPv4Address())
  if (v6.match(NAT64)) return publicIPv4(embeddedIPv4(v6, 12))
  if (v6.match(SIX_TO_FOUR)) return publicIPv4(embeddedIPv4(v6, 2))
  return v6.match(GLOBAL_UNICAST) && !NOT_GLOBAL.some((range) => v6.match(range))
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
