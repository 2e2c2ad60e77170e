import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bech32, bech32m } from '@scure/base'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CHAIN_IDS, type ChainId } from '../../../contract/catalog.ts'
import { base58, base58check, eip55 } from './address-codecs.ts'
import { deriveAddress } from './derive.ts'
import { validateAddress } from './validate.ts'

const utf8 = (text: string) => new TextEncoder().encode(text)
const hash20 = (label: string) => sha256(utf8(label)).subarray(0, 20)
const base58checkOf = (version: number, body: Uint8Array) =>
  base58check.encode(Uint8Array.from([version, ...body]))

const ALPHABET = {
  bech32: 'qpzry9x8gf2tvdw0s3jn54khce6mua7l',
  base58: '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz',
  hex: '0123456789abcdef',
}
const ALPHABET_OF: Record<ChainId, string> = {
  bitcoin: ALPHABET.bech32,
  ethereum: ALPHABET.hex,
  polygon: ALPHABET.hex,
  tron: ALPHABET.base58,
  solana: ALPHABET.base58,
}

/** The address with the character at `at` replaced by the next one of its alphabet: a typo. */
function typo(address: string, alphabet: string, at = address.length - 3): string {
  const c = address[at]!
  const upper = alphabet === ALPHABET.hex && c !== c.toLowerCase()
  const key = upper ? c.toLowerCase() : c
  const next = alphabet[(alphabet.indexOf(key) + 1) % alphabet.length]!
  return address.slice(0, at) + (upper ? next.toUpperCase() : next) + address.slice(at + 1)
}

/** The first 32-byte string derived from `label` that is not a point on ed25519 (a PDA's kind). */
function offCurve(label: string): string {
  for (let i = 0; ; i++) {
    const bytes = sha256(utf8(`${label} ${i}`))
    try {
      ed25519.Point.fromBytes(bytes, true)
    } catch {
      return base58.encode(bytes)
    }
  }
}

type Case = [name: string, chain: ChainId, address: string, normalized: string]
type Bad = [name: string, chain: ChainId, address: string, reason: RegExp]

describe('validateAddress accepts', () => {
  const cases: Case[] = [
    // BIP 173 / BIP 350 examples
    [
      'P2WPKH in upper case (BIP 173), lower-cased',
      'bitcoin',
      'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    ],
    [
      'P2WSH (BIP 173)',
      'bitcoin',
      'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3',
      'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3',
    ],
    [
      'Taproot, bech32m (BIP 350)',
      'bitcoin',
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    ],
    [
      'legacy P2PKH (the genesis coinbase)',
      'bitcoin',
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    ],
    [
      'legacy P2SH',
      'bitcoin',
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
    ],
    [
      'a pasted address with surrounding whitespace',
      'bitcoin',
      '  bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu\n',
      'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
    ],
    // EIP-55's own examples
    ...[
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
      '0x52908400098527886E0F7030069857D2E4169EE7',
      '0xde709f2102306220921060314715629080e2fb77',
    ].map((a): Case => [`EIP-55 example ${a}`, 'ethereum', a, a]),
    [
      'all lower case, checksummed on the way out',
      'ethereum',
      '0x9858effd232b4033e47d90003d41ec34ecaeda94',
      '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
    ],
    [
      'all upper case, checksummed on the way out',
      'polygon',
      '0x9858EFFD232B4033E47D90003D41EC34ECAEDA94',
      '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
    ],
    [
      'the USDT contract on Tron',
      'tron',
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    ],
    [
      'a Phantom wallet',
      'solana',
      'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk',
      'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk',
    ],
  ]
  it.each(cases)('%s', (_name, chain, address, normalized) => {
    expect(validateAddress(chain, address)).toEqual({ ok: true, normalized })
  })

  it('an off-curve Solana address only when the caller allows it', () => {
    const pda = offCurve('vault')
    expect(validateAddress('solana', pda).ok).toBe(false)
    expect(validateAddress('solana', pda, { allowOffCurve: true })).toEqual({
      ok: true,
      normalized: pda,
    })
  })
})

describe('validateAddress refuses', () => {
  const p2wpkh = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'
  const evm = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'
  const tron = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH'
  const solana = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk'
  const cases: Bad[] = [
    ['an empty string', 'bitcoin', '   ', /empty/],
    ['something far too long', 'solana', '1'.repeat(500), /too long/],
    // bitcoin
    ['a segwit typo', 'bitcoin', typo(p2wpkh, ALPHABET.bech32), /checksum does not match/],
    [
      'a BIP 173 checksum error',
      'bitcoin',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5',
      /checksum does not match/,
    ],
    [
      'v0 written with the bech32m checksum (BIP 350)',
      'bitcoin',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh',
      /checksum does not match/,
    ],
    [
      'v1 written with the bech32 checksum (BIP 350)',
      'bitcoin',
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd',
      /checksum does not match/,
    ],
    ['mixed case segwit', 'bitcoin', 'bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', /mixed/],
    [
      'a testnet segwit address',
      'bitcoin',
      'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
      /testnet/,
    ],
    ['a testnet P2PKH address', 'bitcoin', base58checkOf(0x6f, hash20('t')), /testnet/],
    ['a testnet P2SH address', 'bitcoin', base58checkOf(0xc4, hash20('t')), /testnet/],
    [
      'a legacy typo',
      'bitcoin',
      typo('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', ALPHABET.base58),
      /checksum/,
    ],
    [
      'segwit v2 (valid bech32m, not spendable yet)',
      'bitcoin',
      'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs',
      /version 2 is not spendable/,
    ],
    ['segwit v16 (BIP 350)', 'bitcoin', 'BC1SW50QGDZ25J', /version 16/],
    [
      'v1 with a 40-byte program (BIP 350: valid, but not Taproot)',
      'bitcoin',
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
      /wrong length/,
    ],
    [
      'a v0 program of 16 bytes',
      'bitcoin',
      bech32.encode('bc', [0, ...bech32.toWords(new Uint8Array(16).fill(7))]),
      /wrong length/,
    ],
    [
      'the all-zero P2WPKH',
      'bitcoin',
      bech32.encode('bc', [0, ...bech32.toWords(new Uint8Array(20))]),
      /burns/,
    ],
    ['a Litecoin segwit address', 'bitcoin', 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9', /not/],
    ['an Ethereum address', 'bitcoin', evm, /not a Bitcoin address/],
    ['a Tron address', 'bitcoin', tron, /not a Bitcoin address/],
    // EVM
    ['no 0x prefix', 'ethereum', evm.slice(2), /starts with 0x/],
    ['an upper-case 0X prefix', 'ethereum', `0X${evm.slice(2)}`, /starts with 0x/],
    ['39 hex digits', 'ethereum', evm.slice(0, -1), /40 hexadecimal digits/],
    ['41 hex digits', 'polygon', `${evm}a`, /40 hexadecimal digits/],
    ['a non-hex character', 'ethereum', `${evm.slice(0, -1)}g`, /non-hexadecimal/],
    [
      'one letter in the wrong case (EIP-55)',
      'ethereum',
      '0x9858efFD232B4033E47d90003D41EC34EcaEda94',
      /EIP-55/,
    ],
    [
      'a mistyped digit under a checksum',
      'polygon',
      '0x9858EfFD232B4033E47d90003D41EC34EcaEda95',
      /EIP-55/,
    ],
    ['the zero address', 'ethereum', `0x${'0'.repeat(40)}`, /burns/],
    ['a Bitcoin address', 'ethereum', p2wpkh, /starts with 0x/],
    // tron
    ['a Tron typo', 'tron', typo(tron, ALPHABET.base58), /checksum does not match/],
    ['an Ethereum address', 'tron', evm, /base58 form/],
    ['a Tron address in hex', 'tron', `41${evm.slice(2)}`, /base58 form/],
    ['a Bitcoin P2PKH address', 'tron', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', /not a Tron/],
    [
      '20 bytes after 0x41 missing one',
      'tron',
      base58checkOf(0x41, hash20('x').subarray(1)),
      /not a Tron/,
    ],
    ['the all-zero Tron address', 'tron', base58checkOf(0x41, new Uint8Array(20)), /burns/],
    ['a Solana address', 'tron', solana, /not a Tron/],
    // solana
    ['a non-base58 character', 'solana', `${solana.slice(0, -1)}0`, /non-base58/],
    ['31 bytes', 'solana', base58.encode(new Uint8Array(31).fill(9)), /32 bytes/],
    ['33 bytes', 'solana', base58.encode(new Uint8Array(33).fill(9)), /32 bytes/],
    ['the System Program', 'solana', '11111111111111111111111111111111', /System Program/],
    [
      'an associated token account (a PDA)',
      'solana',
      'FF2BjgeRK2LgK8Lj4wY2CTJrmJAKV5ZPCdHqfq1tJLGi',
      /program-derived/,
    ],
    ['a generated off-curve key', 'solana', offCurve('deposit'), /program-derived/],
    ['an Ethereum address', 'solana', evm, /non-base58/],
    ['a Tron address', 'solana', tron, /32 bytes/],
  ]
  it.each(cases)('%s on %s', (_name, chain, address, reason) => {
    const check = validateAddress(chain, address)
    expect(check.ok).toBe(false)
    if (!check.ok) expect(check.reason).toMatch(reason)
  })

  it('the BIP 350 mismatch vectors really are the other checksum, not typos', () => {
    expect(bech32m.decodeUnsafe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh')).toBeTruthy()
    expect(
      bech32.decodeUnsafe('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd'),
    ).toBeTruthy()
  })
})

describe('derived addresses across chains', () => {
  const seed = sha256(utf8('tenant seed cross-chain'))
  const sameFormat = (a: ChainId, b: ChainId) =>
    a === b || (['ethereum', 'polygon'].includes(a) && ['ethereum', 'polygon'].includes(b))
  const pairs = CHAIN_IDS.flatMap((from) => CHAIN_IDS.map((to) => [from, to] as const))

  it.each(pairs)('an address derived for %s on %s', (from, to) => {
    for (let index = 0; index < 10; index++) {
      const check = validateAddress(to, deriveAddress(seed, from, index))
      expect(check.ok).toBe(sameFormat(from, to))
    }
  })
})

describe('properties', () => {
  it('any seed and index derive an address that validates to itself', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 64 }),
        fc.integer({ min: 0, max: 0x7fff_ffff }),
        fc.constantFrom(...CHAIN_IDS),
        (seed, index, chain) => {
          const address = deriveAddress(seed, chain, index)
          expect(validateAddress(chain, address)).toEqual({ ok: true, normalized: address })
        },
      ),
      { numRuns: 100 },
    )
  })

  it('EIP-55 normalization is idempotent and case-insensitive', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        fc.pre(bytes.some((b) => b !== 0))
        const checksummed = eip55(bytes)
        const lower = `0x${checksummed.slice(2).toLowerCase()}`
        const upper = `0x${checksummed.slice(2).toUpperCase()}`
        for (const spelling of [checksummed, lower, upper]) {
          expect(validateAddress('ethereum', spelling)).toEqual({
            ok: true,
            normalized: checksummed,
          })
        }
      }),
      { numRuns: 200 },
    )
  })

  it('a single-character typo in a Bitcoin or Tron address is caught', () => {
    // bech32 guarantees it for up to four errors; base58check misses one in 2^32.
    const seed = sha256(utf8('tenant seed typos'))
    fc.assert(
      fc.property(
        fc.constantFrom<ChainId>('bitcoin', 'tron'),
        fc.integer({ min: 0, max: 1000 }),
        fc.nat(),
        (chain, index, position) => {
          const address = deriveAddress(seed, chain, index)
          // Skip the fixed prefix ("bc1q", "T"): a typo there is another format, tested above.
          const start = chain === 'bitcoin' ? 4 : 1
          const at = start + (position % (address.length - start))
          expect(validateAddress(chain, typo(address, ALPHABET_OF[chain], at)).ok).toBe(false)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('EIP-55 catches nearly every one-digit typo in a checksummed address', () => {
    // EIP-55 is probabilistic: a typo slips through when the new hash happens to give every
    // letter the same case, about 1 in 4 000 on average. Fixed inputs keep the test stable.
    const seed = sha256(utf8('tenant seed typos'))
    let typos = 0
    let missed = 0
    for (let index = 0; index < 50; index++) {
      const address = deriveAddress(seed, 'ethereum', index)
      for (let at = 2; at < address.length; at++) {
        typos++
        if (validateAddress('ethereum', typo(address, ALPHABET.hex, at)).ok) missed++
      }
    }
    expect(typos).toBe(2000)
    expect(missed / typos).toBeLessThan(0.005)
  })
})
