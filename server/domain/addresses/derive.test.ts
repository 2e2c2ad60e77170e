import { pbkdf2 } from '@noble/hashes/pbkdf2.js'
import { sha256, sha512 } from '@noble/hashes/sha2.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { HDKey } from '@scure/bip32'
import { describe, expect, it } from 'vitest'
import { CHAIN_IDS, type ChainId } from '../../../contract/catalog.ts'
import { base58check } from './address-codecs.ts'
import {
  AddressDerivationError,
  accountExtendedPublicKey,
  deriveAddress,
  deriveAddressFromXpub,
  MAX_INDEX,
  type Secp256k1Chain,
} from './derive.ts'
import { slip10Ed25519PublicKey } from './slip10-ed25519.ts'
import { validateAddress } from './validate.ts'

const utf8 = (text: string) => new TextEncoder().encode(text)

/** BIP 39's seed: PBKDF2-HMAC-SHA512(mnemonic, "mnemonic" + passphrase, 2048 rounds). */
const seedOf = (mnemonic: string) =>
  pbkdf2(sha512, utf8(mnemonic), utf8('mnemonic'), { c: 2048, dkLen: 64 })

/** The test mnemonic every wallet publishes vectors for (BIP 84, Trezor, Ian Coleman's tool). */
const ABANDON = seedOf(`${'abandon '.repeat(11)}about`)

/** A stand-in tenant seed: 32 bytes, as a tenant's would be. */
const tenantSeed = (label: string) => sha256(utf8(`tenant seed ${label}`))

const SECP256K1_CHAINS: Secp256k1Chain[] = ['bitcoin', 'ethereum', 'polygon', 'tron']

describe('published test vectors for "abandon … about"', () => {
  it('the BIP 39 seed is the published one', () => {
    expect(bytesToHex(ABANDON)).toBe(
      '5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc1' +
        '9a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4',
    )
  })

  const vectors: Array<[ChainId, number, string, string]> = [
    ['bitcoin', 0, 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', "BIP 84, m/84'/0'/0'/0/0"],
    ['bitcoin', 1, 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g', "BIP 84, m/84'/0'/0'/0/1"],
    ['ethereum', 0, '0x9858EfFD232B4033E47d90003D41EC34EcaEda94', "m/44'/60'/0'/0/0"],
    ['ethereum', 1, '0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0', "m/44'/60'/0'/0/1"],
    ['ethereum', 2, '0xb6716976A3ebe8D39aCEB04372f22Ff8e6802D7A', "m/44'/60'/0'/0/2"],
    ['polygon', 0, '0x9858EfFD232B4033E47d90003D41EC34EcaEda94', 'same key as Ethereum'],
    ['tron', 0, 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH', "m/44'/195'/0'/0/0"],
    ['tron', 1, 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK', "m/44'/195'/0'/0/1"],
    ['solana', 0, 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk', "Phantom, m/44'/501'/0'/0'"],
    ['solana', 1, 'Hh8QwFUA6MtVu1qAoq12ucvFHNwCcVTV7hpWjeY1Hztb', "m/44'/501'/1'/0'"],
    ['solana', 2, '7WktogJEd2wQ9eH2oWusmcoFTgeYi6rS632UviTBJ2jm', "m/44'/501'/2'/0'"],
  ]
  it.each(vectors)('%s #%i is %s (%s)', (chain, index, address) => {
    expect(deriveAddress(ABANDON, chain, index)).toBe(address)
  })

  it("the bitcoin account key is BIP 84's zpub once given zpub version bytes", () => {
    const xpub = base58check.decode(accountExtendedPublicKey(ABANDON, 'bitcoin'))
    const zpub = new Uint8Array(xpub)
    new DataView(zpub.buffer).setUint32(0, 0x04b24746) // SLIP-132 zpub
    expect(base58check.encode(zpub)).toBe(
      'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
    )
  })
})

describe('SLIP-0010 ed25519, test vector 1', () => {
  const seed = hexToBytes('000102030405060708090a0b0c0d0e0f')
  const vectors: Array<[string, number[], string]> = [
    ['m', [], 'a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed'],
    ["m/0'", [0], '8c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c'],
    ["m/0'/1'", [0, 1], '1932a5270f335bed617d5b935c80aedb1a35bd9fc1e31acafd5372c30f5c1187'],
    ["m/0'/1'/2'", [0, 1, 2], 'ae98736566d30ed0e9d2f4486a64bc95740d89c7db33f52121f8ea8f76ff0fc1'],
    [
      "m/0'/1'/2'/2'",
      [0, 1, 2, 2],
      '8abae2d66361c879b900d204ad2cc4984fa2aa344dd7ddc46007329ac76c429c',
    ],
    [
      "m/0'/1'/2'/2'/1000000000'",
      [0, 1, 2, 2, 1_000_000_000],
      '3c24da049451555d51a7014a37337aa4e12d41e485abccfa46b47dfb2af54b7a',
    ],
  ]
  it.each(vectors)('%s has the published public key', (_path, path, publicKey) => {
    expect(bytesToHex(slip10Ed25519PublicKey(seed, path))).toBe(publicKey)
  })
})

describe('deriveAddress', () => {
  it.each(CHAIN_IDS)('%s: the same seed and index always give the same address', (chain) => {
    const seed = tenantSeed('a')
    expect(deriveAddress(seed, chain, 7)).toBe(deriveAddress(Uint8Array.from(seed), chain, 7))
  })

  it.each(CHAIN_IDS)('%s: another index or another seed gives another address', (chain) => {
    const a = deriveAddress(tenantSeed('a'), chain, 0)
    expect(deriveAddress(tenantSeed('a'), chain, 1)).not.toBe(a)
    expect(deriveAddress(tenantSeed('b'), chain, 0)).not.toBe(a)
  })

  it.each(CHAIN_IDS)('%s: 40 consecutive addresses are distinct and each validates', (chain) => {
    const seed = tenantSeed('round trip')
    const addresses = Array.from({ length: 40 }, (_, i) => deriveAddress(seed, chain, i))
    expect(new Set(addresses).size).toBe(addresses.length)
    for (const address of addresses) {
      expect(validateAddress(chain, address)).toEqual({ ok: true, normalized: address })
    }
  })

  it('the highest non-hardened index is usable on every chain', () => {
    for (const chain of CHAIN_IDS) {
      const address = deriveAddress(tenantSeed('a'), chain, MAX_INDEX)
      expect(validateAddress(chain, address).ok).toBe(true)
    }
  })

  it('Ethereum and Polygon share the key, Tron holds the same account id under its own path', () => {
    const seed = tenantSeed('a')
    expect(deriveAddress(seed, 'polygon', 3)).toBe(deriveAddress(seed, 'ethereum', 3))
    // Different coin types (60 vs 195): a Tron deposit address is not the Ethereum one re-spelt.
    const tron = base58check.decode(deriveAddress(seed, 'tron', 3)).subarray(1)
    expect(`0x${bytesToHex(tron)}`).not.toBe(deriveAddress(seed, 'ethereum', 3).toLowerCase())
  })

  it.each([
    ['a seed shorter than 32 bytes', new Uint8Array(31), 0],
    ['a seed longer than 64 bytes', new Uint8Array(65), 0],
    ['a negative index', new Uint8Array(32), -1],
    ['a fractional index', new Uint8Array(32), 1.5],
    ['a hardened index', new Uint8Array(32), MAX_INDEX + 1],
  ])('refuses %s', (_name, seed, index) => {
    for (const chain of CHAIN_IDS) {
      expect(() => deriveAddress(seed, chain, index)).toThrow(AddressDerivationError)
    }
  })
})

describe('deriving from the account xpub (the production path)', () => {
  it.each(SECP256K1_CHAINS)('%s: the xpub gives the same addresses as the seed', (chain) => {
    const seed = tenantSeed('custodian')
    const xpub = accountExtendedPublicKey(seed, chain)
    expect(xpub).toMatch(/^xpub/)
    for (const index of [0, 1, 2, 1000]) {
      expect(deriveAddressFromXpub(xpub, chain, index)).toBe(deriveAddress(seed, chain, index))
    }
  })

  it('refuses an extended private key and garbage', () => {
    const xprv = HDKey.fromMasterSeed(tenantSeed('custodian')).privateExtendedKey
    expect(() => deriveAddressFromXpub(xprv, 'bitcoin', 0)).toThrow(/private key/)
    expect(() => deriveAddressFromXpub('xpub-nonsense', 'bitcoin', 0)).toThrow(
      AddressDerivationError,
    )
  })
})
