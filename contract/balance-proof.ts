import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import type { MyProof, ProofRoot, SnapshotBalance } from './proofs.ts'

/*
 * The proof of balances (issue 33), both halves in one place: the encoding
 * the server builds its Merkle-sum tree with (server/domain/proofs/rules.ts)
 * and the verifier the app's worker runs (src/workers/proof-verify.ts). One
 * implementation, so a test of either is a test of both. docs/api.md spells
 * the encoding byte for byte; docs/decisions.md says why it is this one.
 *
 * Pure and synchronous (noble's SHA-256 and Ed25519, no Web Crypto, no IO):
 * it runs the same in Node, in a worker and offline.
 */

/**
 * Minor units per currency code, in code order (byte order: `USD` before
 * `USDC`). Every node of one snapshot has the same codes: the tenant's
 * currencies, zeros included.
 */
export type Sums = readonly (readonly [code: string, amount: bigint])[]

const CODE = /^[A-Z0-9]+$/
const AMOUNT = /^-?(0|[1-9][0-9]*)$/
const HEX_32_BYTES = /^[0-9a-f]{64}$/

/** `BTC:1275277,EUR:194800`: the only spelling of a node's sums, hashed and signed as it is. */
export function formatSums(sums: Sums): string {
  return sums.map(([code, amount]) => `${code}:${amount}`).join(',')
}

/**
 * The sums a text spells, or undefined when it is not in the one canonical
 * spelling (codes strictly ascending, no leading zeros, no `-0`). A negative
 * amount parses, so the verifier can name it rather than call it malformed.
 */
export function parseSums(text: string): Sums | undefined {
  const sums: [string, bigint][] = []
  for (const item of text.split(',')) {
    const [code, amount, extra] = item.split(':')
    if (extra !== undefined || !code || !amount || !CODE.test(code) || !AMOUNT.test(amount))
      return undefined
    if (amount === '-0') return undefined
    const previous = sums.at(-1)?.[0]
    if (previous !== undefined && !(previous < code)) return undefined
    sums.push([code, BigInt(amount)])
  }
  return sums
}

/** Both children's sums added per code; undefined when their codes differ. */
export function addSums(left: Sums, right: Sums): Sums | undefined {
  if (left.length !== right.length) return undefined
  const added: [string, bigint][] = []
  for (const [index, [code, amount]] of left.entries()) {
    const [otherCode, otherAmount] = right[index]!
    if (code !== otherCode) return undefined
    added.push([code, amount + otherAmount])
  }
  return added
}

/** Every code at zero: a padding leaf's sums. */
export const zeroSums = (codes: readonly string[]): Sums =>
  [...codes].sort().map((code) => [code, 0n] as const)

const sha256Hex = (text: string) => bytesToHex(sha256(utf8ToBytes(text)))

/** A leaf: `sha256("leaf|" + tenant_id + "|" + snapshot_id + "|" + nonce + "|" + sums)`, hex. */
export function leafHash(tenantId: string, snapshotId: string, nonce: string, sums: string) {
  return sha256Hex(`leaf|${tenantId}|${snapshotId}|${nonce}|${sums}`)
}

/**
 * A node. Both children's sums are inside the hash, not only their total:
 * the fix (Hu, Zhang and Guo 2019) of Maxwell's tree, where a parent that
 * committed to the sum alone let a child's amount be shifted to its sibling.
 */
export function nodeHash(
  left: { hash: string; sums: string },
  right: { hash: string; sums: string },
): string {
  return sha256Hex(`node|${left.hash}|${left.sums}|${right.hash}|${right.sums}`)
}

/** The text the tenant's key signs (UTF-8): every field of the root but the signature. */
export function rootMessage(
  root: Pick<ProofRoot, 'tenant_id' | 'snapshot_id' | 'taken_at' | 'leaf_count' | 'hash' | 'sums'>,
): string {
  const { tenant_id, snapshot_id, taken_at, leaf_count, hash, sums } = root
  return `root|${tenant_id}|${snapshot_id}|${taken_at}|${leaf_count}|${hash}|${sums}`
}

/** A key's id and fingerprint: the first 16 bytes of SHA-256 over the raw 32-byte public key. */
export const keyIdOf = (publicKey: Uint8Array): string => bytesToHex(sha256(publicKey)).slice(0, 32)

/** DER of an Ed25519 SubjectPublicKeyInfo before its 32 key bytes (RFC 8410). */
const SPKI_PREFIX = '302a300506032b6570032100'

/** The raw 32-byte key of an Ed25519 public key in PEM, or undefined when it is not one. */
export function publicKeyFromPem(pem: string): Uint8Array | undefined {
  const match = /^-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]+)-----END PUBLIC KEY-----$/.exec(
    pem.trim(),
  )
  const der = match && fromBase64(match[1]!.replace(/\s+/g, ''))
  if (der?.length !== 44 || bytesToHex(der.subarray(0, 12)) !== SPKI_PREFIX) return undefined
  return der.subarray(12)
}

function fromBase64(text: string): Uint8Array | undefined {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text))
    return undefined
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0))
}

/**
 * Why a proof does not check out, one reason per check, in the order they
 * run (the first failing one is answered):
 * - `malformed`: a field is not in the published shape, or two nodes' sums
 *   name different currencies;
 * - `wrong_tenant`: the root is another tenant's;
 * - `negative_sum`: the leaf, a sibling or the root has an amount below zero
 *   (a negative sibling would hide someone else's money);
 * - `wrong_depth`: the path is not log2(leaf_count) steps long;
 * - `hash_mismatch`: the leaf and path do not hash to the root (a tampered
 *   leaf, nonce or sibling);
 * - `sums_mismatch`: the root's children add up to other sums than the root
 *   states (the root's sums are signed, not hashed);
 * - `key_changed`: the tenant's key is not the one pinned on this device;
 * - `stale_key`: the root was signed with another key than the one trusted;
 * - `bad_signature`: the signature is not the key's over this root;
 * - `balances_mismatch`: the balances shown for the snapshot are not the leaf's.
 */
export const PROOF_FAILURES = [
  'malformed',
  'wrong_tenant',
  'negative_sum',
  'wrong_depth',
  'hash_mismatch',
  'sums_mismatch',
  'key_changed',
  'stale_key',
  'bad_signature',
  'balances_mismatch',
] as const
export type ProofFailure = (typeof PROOF_FAILURES)[number]

export type ProofVerdict =
  | { ok: true; keyId: string; sums: Sums }
  | { ok: false; failure: ProofFailure; detail: string }

export interface VerifyInput {
  /** The tenant this app belongs to. */
  tenantId: string
  proof: MyProof
  /** The tenant's public key as GET /api/proofs/{tenant_id}/key answered it. */
  publicKeyPem: string
  /** The key id pinned on this device at first use; undefined the first time. */
  pinnedKeyId?: string | undefined
}

const fail = (failure: ProofFailure, detail: string): ProofVerdict => ({
  ok: false,
  failure,
  detail,
})

/** Checks a person's proof against the signed root, alone and offline. */
export function verifyProof(input: VerifyInput): ProofVerdict {
  const { root, leaf, path, balances_at_snapshot: balances } = input.proof
  const leafSums = parseSums(leaf.sums)
  const rootSums = parseSums(root.sums)
  const steps = path.map((step) => ({ ...step, parsed: parseSums(step.sums) }))
  const depth = depthOf(root.leaf_count)
  if (!leafSums || !rootSums || steps.some((step) => !step.parsed))
    return fail('malformed', 'a sums field is not CODE:AMOUNT in code order')
  if (!HEX_32_BYTES.test(leaf.nonce) || !HEX_32_BYTES.test(root.hash))
    return fail('malformed', 'the nonce or the root hash is not 32 bytes of hex')
  if (steps.some((step) => !HEX_32_BYTES.test(step.hash) || !['left', 'right'].includes(step.side)))
    return fail('malformed', 'a step of the path is not a side and 32 bytes of hex')
  if (depth === undefined) return fail('malformed', 'leaf_count is not a power of two')
  const publicKey = publicKeyFromPem(input.publicKeyPem)
  if (!publicKey) return fail('malformed', 'the public key is not an Ed25519 key in PEM')

  if (root.tenant_id !== input.tenantId)
    return fail('wrong_tenant', `the root is of tenant ${root.tenant_id}`)
  const negative = [leafSums, ...steps.map((step) => step.parsed!), rootSums].findIndex((sums) =>
    sums.some(([, amount]) => amount < 0n),
  )
  if (negative >= 0) {
    const where =
      negative === 0 ? 'the leaf' : negative > steps.length ? 'the root' : `step ${negative}`
    return fail('negative_sum', `${where} has a negative amount`)
  }
  if (steps.length !== depth)
    return fail('wrong_depth', `${steps.length} steps for ${root.leaf_count} leaves`)

  let node = {
    hash: leafHash(root.tenant_id, root.snapshot_id, leaf.nonce, leaf.sums),
    sums: leafSums,
  }
  for (const [index, step] of steps.entries()) {
    const sums = addSums(node.sums, step.parsed!)
    if (!sums) return fail('malformed', `step ${index + 1} names other currencies`)
    const own = { hash: node.hash, sums: formatSums(node.sums) }
    const sibling = { hash: step.hash, sums: step.sums }
    const hash = step.side === 'left' ? nodeHash(sibling, own) : nodeHash(own, sibling)
    node = { hash, sums }
  }
  if (node.hash !== root.hash)
    return fail('hash_mismatch', 'the leaf and its path do not lead to the root')
  if (formatSums(node.sums) !== root.sums)
    return fail('sums_mismatch', `the children add up to ${formatSums(node.sums)}`)

  const keyId = keyIdOf(publicKey)
  if (input.pinnedKeyId !== undefined && input.pinnedKeyId !== keyId)
    return fail('key_changed', `the key is ${keyId}, ${input.pinnedKeyId} was pinned`)
  if (root.key_id !== keyId) return fail('stale_key', `signed with ${root.key_id}, not ${keyId}`)
  const signature = fromBase64(root.signature)
  const message = utf8ToBytes(rootMessage(root))
  if (signature?.length !== 64 || !verifies(signature, message, publicKey))
    return fail('bad_signature', 'the signature is not the key’s over this root')

  if (!sameBalances(leafSums, balances))
    return fail('balances_mismatch', 'the balances shown are not the leaf’s sums')
  return { ok: true, keyId, sums: leafSums }
}

function verifies(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    // RFC 8032's strict decoding, as OpenSSL (the server's signer) verifies.
    return ed25519.verify(signature, message, publicKey, { zip215: false })
  } catch {
    return false
  }
}

/** log2(count) for a power of two, else undefined. */
function depthOf(count: number): number | undefined {
  if (!Number.isSafeInteger(count) || count < 1) return undefined
  let depth = 0
  for (let size = 1; size < count; size *= 2) depth++
  return 2 ** depth === count ? depth : undefined
}

/** "1948.00" → 194800n and its 2 places: amounts carry exactly their currency's decimals. */
function minorOf(amount: string): { minor: bigint; places: number } | undefined {
  const match = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/.exec(amount)
  if (!match) return undefined
  const fraction = match[2] ?? ''
  return { minor: BigInt(match[1]! + fraction), places: fraction.length }
}

/**
 * Whether the balances shown for the snapshot are exactly the leaf: each
 * currency's amount is its sum, its parts add up to it, and a currency left
 * out is zero in the leaf.
 */
function sameBalances(sums: Sums, balances: readonly SnapshotBalance[]): boolean {
  const leaf = new Map(sums)
  const shown = new Set<string>()
  for (const balance of balances) {
    const total = minorOf(balance.amount)
    if (!total || shown.has(balance.currency) || leaf.get(balance.currency) !== total.minor)
      return false
    shown.add(balance.currency)
    let parts = 0n
    for (const part of balance.parts) {
      const amount = minorOf(part.amount)
      if (!amount || amount.places !== total.places) return false
      parts += amount.minor
    }
    if (parts !== total.minor) return false
  }
  return sums.every(([code, amount]) => amount === 0n || shown.has(code))
}
