/**
 * # Deposit addresses, derived deterministically from a tenant seed
 *
 * `deriveAddress(seed, chain, index)` turns a per-tenant secret seed (32–64 bytes, stored by
 * the caller) and an index the caller allocates into the deposit address a real wallet would
 * produce from the same seed — same paths, same encodings:
 *
 * | chain            | curve     | path                      | address                                     |
 * | ---------------- | --------- | ------------------------- | ------------------------------------------- |
 * | bitcoin          | secp256k1 | m/84'/0'/0'/0/index       | P2WPKH, bech32 `bc1q…` (BIP 84)             |
 * | ethereum,polygon | secp256k1 | m/44'/60'/0'/0/index      | keccak-256 → last 20 bytes, EIP-55 `0x…`    |
 * | tron             | secp256k1 | m/44'/195'/0'/0/index     | 0x41 ‖ the same 20 bytes, base58check `T…`  |
 * | solana           | ed25519   | m/44'/501'/index'/0'      | the public key, base58 (SLIP-0010, Phantom) |
 *
 * Ethereum and Polygon share a path, so one index gives the same address on both (as in
 * MetaMask): store addresses keyed by (chain, address), never by address alone.
 *
 * Why derive rather than store random keys: the sandbox hands out addresses that are valid on
 * their chain (a real wallet app accepts them, checksums and all), the same seed and index
 * always give the same address, so nothing but the index needs storing, and importing the seed
 * into any BIP 39/44-compatible wallet reproduces every address.
 *
 * Hazards. The seed is a secret: whoever holds it can spend everything sent to every address
 * of the tenant. This module is for the sandbox; in production an HSM or a custody provider
 * owns the keys and this module is replaced by its API. No private key leaves this module:
 * private keys exist only transiently inside the derivation, and only addresses are returned.
 * For the secp256k1 chains the production path needs no secret on the server at all: BIP 32
 * non-hardened derivation lets the server hold only the account-level extended public key
 * (`accountExtendedPublicKey`, exported once from the custodian) and derive `0/index` from it
 * (`deriveAddressFromXpub`). Solana's ed25519 derivation is hardened-only, so it has no such
 * path: Solana deposit addresses must come from the custodian.
 *
 * The index must be unique per tenant and chain (Ethereum and Polygon share one sequence if
 * their addresses are to differ) and below 2^31.
 */
import { HDKey } from '@scure/bip32'
import type { ChainId } from '../../../contract/catalog.ts'
import { base58, bitcoinP2wpkh, eip55, evmAccountId, tronAddress } from './address-codecs.ts'
import { slip10Ed25519PublicKey } from './slip10-ed25519.ts'

export const MIN_SEED_BYTES = 32
export const MAX_SEED_BYTES = 64
/** Indices at or above 2^31 are BIP 32's hardened range: not usable as a plain address index. */
export const MAX_INDEX = 0x7fff_ffff

/** The chains whose keys are secp256k1 and can be derived from an extended public key. */
export type Secp256k1Chain = Exclude<ChainId, 'solana'>

interface Secp256k1Scheme {
  /** The hardened account-level path; addresses live below it at the external branch `0/index`. */
  account: string
  encode: (compressedPublicKey: Uint8Array) => string
}

const SECP256K1: Record<Secp256k1Chain, Secp256k1Scheme> = {
  bitcoin: { account: "m/84'/0'/0'", encode: bitcoinP2wpkh },
  ethereum: { account: "m/44'/60'/0'", encode: (key) => eip55(evmAccountId(key)) },
  polygon: { account: "m/44'/60'/0'", encode: (key) => eip55(evmAccountId(key)) },
  tron: { account: "m/44'/195'/0'", encode: (key) => tronAddress(evmAccountId(key)) },
}

/** Solana's coin type under BIP 44; the wallet index is the hardened account level. */
const SOLANA_COIN_TYPE = 501

export class AddressDerivationError extends Error {
  override name = 'AddressDerivationError'
}

function assertSeed(seed: Uint8Array): void {
  if (!(seed instanceof Uint8Array)) throw new AddressDerivationError('the seed must be bytes')
  if (seed.length < MIN_SEED_BYTES || seed.length > MAX_SEED_BYTES) {
    throw new AddressDerivationError(
      `the seed must be ${MIN_SEED_BYTES} to ${MAX_SEED_BYTES} bytes, got ${seed.length}`,
    )
  }
}

function assertIndex(index: number): void {
  if (!Number.isSafeInteger(index) || index < 0 || index > MAX_INDEX) {
    throw new AddressDerivationError(`the index must be an integer from 0 to ${MAX_INDEX}`)
  }
}

/** The account node of a secp256k1 chain, stripped to its public half. */
function accountNode(seed: Uint8Array, chain: Secp256k1Chain): HDKey {
  assertSeed(seed)
  const account = HDKey.fromMasterSeed(seed).derive(SECP256K1[chain].account)
  return HDKey.fromExtendedKey(account.publicExtendedKey)
}

function addressBelow(account: HDKey, chain: Secp256k1Chain, index: number): string {
  assertIndex(index)
  const publicKey = account.deriveChild(0).deriveChild(index).publicKey
  // A public-only HDKey always has a public key; the check keeps the types honest.
  if (!publicKey) throw new AddressDerivationError('the derived key has no public key')
  return SECP256K1[chain].encode(publicKey)
}

/** The deposit address number `index` of `chain` for the tenant whose seed this is. */
export function deriveAddress(seed: Uint8Array, chain: ChainId, index: number): string {
  if (chain === 'solana') {
    assertSeed(seed)
    assertIndex(index)
    return base58.encode(slip10Ed25519PublicKey(seed, [44, SOLANA_COIN_TYPE, index, 0]))
  }
  return addressBelow(accountNode(seed, chain), chain, index)
}

/**
 * The account-level extended public key (`xpub…`, BIP 32 mainnet version bytes for every
 * chain) from which `deriveAddressFromXpub` derives the same addresses as `deriveAddress`.
 */
export function accountExtendedPublicKey(seed: Uint8Array, chain: Secp256k1Chain): string {
  return accountNode(seed, chain).publicExtendedKey
}

/** The production path: addresses from an account xpub, with no secret on the server. */
export function deriveAddressFromXpub(xpub: string, chain: Secp256k1Chain, index: number): string {
  let account: HDKey
  try {
    account = HDKey.fromExtendedKey(xpub)
  } catch {
    throw new AddressDerivationError('not a valid extended public key')
  }
  if (account.privateKey) {
    throw new AddressDerivationError('an extended private key was given; pass the xpub only')
  }
  return addressBelow(account, chain, index)
}
