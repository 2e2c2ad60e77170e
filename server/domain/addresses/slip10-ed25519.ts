/**
 * SLIP-0010 key derivation for ed25519, the scheme Solana wallets (Phantom, Solflare,
 * solana-keygen) use. ed25519 has no public-key child derivation, so every step is hardened
 * and needs the private key: there is no "xpub" for Solana.
 *
 * Hand-written because it is a dozen lines over an audited HMAC and the packages that offer it
 * either pull in another curve library (ed25519-hd-key → tweetnacl) or are unaudited.
 * Checked against SLIP-0010's published test vector 1 for ed25519 in the tests.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { hmac } from '@noble/hashes/hmac.js'
import { sha512 } from '@noble/hashes/sha2.js'

const HARDENED = 0x8000_0000
const MASTER_KEY = new TextEncoder().encode('ed25519 seed')

interface Node {
  key: Uint8Array
  chainCode: Uint8Array
}

/** Left half: the child's private key; right half: its chain code. Wipes the HMAC output. */
function split(i: Uint8Array): Node {
  const node = { key: i.slice(0, 32), chainCode: i.slice(32) }
  i.fill(0)
  return node
}

/** `path` lists the child indices below the master key, each taken as hardened. */
export function slip10Ed25519PublicKey(seed: Uint8Array, path: readonly number[]): Uint8Array {
  let node = split(hmac(sha512, MASTER_KEY, seed))
  for (const index of path) {
    // data = 0x00 ‖ parent key ‖ ser32(index + 2^31), big-endian
    const data = new Uint8Array(37)
    data.set(node.key, 1)
    new DataView(data.buffer).setUint32(33, (index + HARDENED) >>> 0, false)
    const next = split(hmac(sha512, node.chainCode, data))
    data.fill(0)
    node.key.fill(0)
    node = next
  }
  const publicKey = ed25519.getPublicKey(node.key)
  node.key.fill(0)
  return publicKey
}
