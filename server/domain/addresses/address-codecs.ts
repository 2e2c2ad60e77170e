/**
 * The byte-level encodings of each address format, shared by derivation (public key → text)
 * and validation (text → bytes → canonical text), so the two can never drift apart.
 * Pure functions over audited primitives (@noble/hashes, @noble/curves, @scure/base).
 */
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { ripemd160 } from '@noble/hashes/legacy.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { base58, bech32, createBase58check } from '@scure/base'

/** Bitcoin's and Tron's base58check: payload ‖ first 4 bytes of sha256(sha256(payload)). */
export const base58check = createBase58check(sha256)
export { base58 }

/** The alphabet shared by every base58 variant here (no 0, O, I, l). */
export const BASE58_TEXT = /^[1-9A-HJ-NP-Za-km-z]+$/

/** Mainnet human-readable part of Bitcoin's segwit addresses (BIP 173). */
export const BITCOIN_HRP = 'bc'
/** Version bytes of Bitcoin's legacy base58check addresses on mainnet. */
export const BITCOIN_P2PKH_VERSION = 0x00
export const BITCOIN_P2SH_VERSION = 0x05
/** Tron's base58check payload: this byte, then the same 20-byte account id as on Ethereum. */
export const TRON_PREFIX = 0x41

/** RIPEMD-160 of SHA-256: the key hash inside P2PKH and P2WPKH. */
export const hash160 = (bytes: Uint8Array): Uint8Array => ripemd160(sha256(bytes))

/** P2WPKH: witness version 0 and the 20-byte hash160 of the compressed public key, bech32. */
export function bitcoinP2wpkh(compressedPublicKey: Uint8Array): string {
  const program = hash160(compressedPublicKey)
  return bech32.encode(BITCOIN_HRP, [0, ...bech32.toWords(program)])
}

/**
 * The 20-byte account id of Ethereum-style chains: the last 20 bytes of keccak-256 over the
 * uncompressed public key without its 0x04 prefix. Accepts a compressed or uncompressed key.
 */
export function evmAccountId(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false)
  return keccak_256(uncompressed.subarray(1)).subarray(-20)
}

/**
 * EIP-55: a hex letter is upper case when the matching nibble of keccak-256 over the
 * lower-case hex text is 8 or more. The case carries the checksum, so it must be preserved.
 */
export function eip55(accountId: Uint8Array): string {
  const lower = bytesToHex(accountId)
  const hash = bytesToHex(keccak_256(new TextEncoder().encode(lower)))
  let out = '0x'
  for (let i = 0; i < lower.length; i++) {
    const c = lower[i]!
    out += Number.parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c
  }
  return out
}

export function tronAddress(accountId: Uint8Array): string {
  const payload = new Uint8Array(21)
  payload[0] = TRON_PREFIX
  payload.set(accountId, 1)
  return base58check.encode(payload)
}

export const isAllZero = (bytes: Uint8Array): boolean => bytes.every((b) => b === 0)
