import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { formatSums, leafHash, nodeHash, parseSums } from '../../../contract/balance-proof.ts'
import {
  type BalanceRow,
  buildTree,
  nextUtcDay,
  peopleOf,
  type RandomBytes,
  reserveLines,
  siblingsOf,
  utcDay,
} from './rules.ts'

const CURRENCIES = [
  { code: 'BTC', decimals: 8 },
  { code: 'EUR', decimals: 2 },
  { code: 'USDT', decimals: 6 },
]
const TENANT = '2b7c6f0e-9d4a-4f3e-8a1b-5c6d7e8f9a01'
const SNAPSHOT = '019ad2f0-0000-7000-8000-000000000001'

/** A repeatable stream of "random" bytes: SHA-256 of a counter. */
function seeded(seed: string): RandomBytes {
  let counter = 0
  return (count) => {
    const bytes = Buffer.alloc(count)
    for (let filled = 0; filled < count; filled += 32) {
      createHash('sha256').update(`${seed}:${counter++}`).digest().copy(bytes, filled)
    }
    return new Uint8Array(bytes)
  }
}

const row = (overrides: Partial<BalanceRow>): BalanceRow => ({
  userId: 'ana',
  kind: 'user_wallet',
  walletId: '019ad2f0-0000-7000-8000-0000000000a1',
  walletType: 'personal',
  fiatAccount: null,
  code: 'EUR',
  amount: 100n,
  ...overrides,
})

describe('whose balances make up a snapshot', () => {
  it('a person’s wallets, holds and fiat accounts per code, every code at zero too', () => {
    const fiat = { id: '019ad2f0-0000-7000-8000-0000000000f1', programName: 'EUR prepaid' }
    const { people, pending, negative } = peopleOf({
      users: ['ana', 'bo'],
      currencies: CURRENCIES,
      rows: [
        row({ amount: 194_800n }),
        row({ kind: 'held', amount: 5_000n }),
        row({ kind: 'sub_account', fiatAccount: fiat, amount: 20_000n }),
        // A token on two chains is one currency of the proof.
        row({ code: 'USDT', amount: 1_000_000n }),
        row({
          code: 'USDT',
          walletId: '019ad2f0-0000-7000-8000-0000000000a2',
          walletType: 'trading',
          amount: 2n,
        }),
        row({ code: 'BTC', amount: 0n }),
      ],
    })
    expect({ pending, negative }).toEqual({ pending: 0, negative: 0 })
    expect(people.map((person) => formatSums(person.sums))).toEqual([
      'BTC:0,EUR:219800,USDT:1000002',
      'BTC:0,EUR:0,USDT:0',
    ])
    expect(people[0]!.balances).toEqual([
      {
        currency: 'EUR',
        amount: '2198.00',
        parts: [
          expect.objectContaining({
            source: 'fiat_account',
            id: fiat.id,
            amount: '200.00',
            program_name: 'EUR prepaid',
          }),
          expect.objectContaining({ source: 'wallet', wallet_type: 'personal', amount: '1998.00' }),
        ],
      },
      {
        currency: 'USDT',
        amount: '1.000002',
        parts: [
          expect.objectContaining({ wallet_type: 'personal', amount: '1.000000' }),
          expect.objectContaining({ wallet_type: 'trading', amount: '0.000002' }),
        ],
      },
    ])
    expect(people[1]!.balances).toEqual([])
  })

  it.each([
    [
      'money still arriving',
      [row({ kind: 'pending', amount: 5n }), row({ userId: 'bo', kind: 'pending', amount: 1n })],
      2,
      0,
    ],
    ['a pending account at zero', [row({ kind: 'pending', amount: 0n })], 0, 0],
    ['a balance below zero', [row({ amount: -1n })], 0, 1],
  ])('%s: %i pending, %i negative', (_name, rows, pending, negative) => {
    expect(peopleOf({ users: ['ana', 'bo'], currencies: CURRENCIES, rows })).toMatchObject({
      pending,
      negative,
    })
  })
})

describe('the tree', () => {
  const codes = CURRENCIES.map((currency) => currency.code)
  const sums = (text: string) => parseSums(text)!

  it.each([
    [0, 1],
    [1, 1],
    [2, 2],
    [3, 4],
    [5, 8],
  ])('%i people: %i leaves, padded with zero leaves', (count, leaves) => {
    const people = Array.from({ length: count }, (_, index) => ({
      userId: `p${index}`,
      sums: sums(`BTC:${index},EUR:1,USDT:0`),
    }))
    const tree = buildTree({
      tenantId: TENANT,
      snapshotId: SNAPSHOT,
      codes,
      people,
      random: seeded('a'),
    })
    expect(tree.levels[0]).toHaveLength(leaves)
    expect(tree.levels.at(-1)).toHaveLength(1)
    expect(formatSums(tree.levels.at(-1)![0]!.sums)).toBe(
      `BTC:${(count * (count - 1)) / 2},EUR:${count},USDT:0`,
    )
    expect(new Set(tree.leaves.map((leaf) => leaf.position)).size).toBe(count)
    expect(new Set(tree.leaves.map((leaf) => leaf.nonce)).size).toBe(count)
  })

  it('each person’s leaf and siblings hash up to the root, by the contract’s encoding', () => {
    const people = ['ana', 'bo', 'cy'].map((userId, index) => ({
      userId,
      sums: sums(`BTC:${index + 1},EUR:${index * 100},USDT:7`),
    }))
    const tree = buildTree({
      tenantId: TENANT,
      snapshotId: SNAPSHOT,
      codes,
      people,
      random: seeded('b'),
    })
    const root = tree.levels.at(-1)![0]!
    for (const leaf of tree.leaves) {
      const own = people.find((person) => person.userId === leaf.userId)!
      let node = {
        hash: leafHash(TENANT, SNAPSHOT, leaf.nonce, formatSums(own.sums)),
        sums: formatSums(own.sums),
      }
      for (const step of siblingsOf(leaf.position, 2)) {
        const sibling = tree.levels[step.level]![step.position]!
        const other = { hash: sibling.hash, sums: formatSums(sibling.sums) }
        const parent = tree.levels[step.level + 1]![Math.floor(step.position / 2)]!
        node = {
          hash: step.side === 'left' ? nodeHash(other, node) : nodeHash(node, other),
          sums: formatSums(parent.sums),
        }
      }
      expect(node.hash).toBe(root.hash)
    }
  })

  it('shuffles: another snapshot puts the same people elsewhere, with other nonces', () => {
    const people = Array.from({ length: 8 }, (_, index) => ({
      userId: `p${index}`,
      sums: sums('BTC:0,EUR:0,USDT:0'),
    }))
    const build = (seed: string) =>
      buildTree({ tenantId: TENANT, snapshotId: SNAPSHOT, codes, people, random: seeded(seed) })
        .leaves
    const [one, two] = [build('x'), build('y')]
    expect(one.map((leaf) => leaf.userId)).not.toEqual(two.map((leaf) => leaf.userId))
    expect(one.map((leaf) => leaf.nonce)).not.toEqual(two.map((leaf) => leaf.nonce))
  })

  it.each([
    [
      0,
      2,
      [
        { level: 0, position: 1, side: 'right' },
        { level: 1, position: 1, side: 'right' },
      ],
    ],
    [
      5,
      3,
      [
        { level: 0, position: 4, side: 'left' },
        { level: 1, position: 3, side: 'right' },
        { level: 2, position: 0, side: 'left' },
      ],
    ],
    [0, 0, []],
  ])('the leaf at %i of a tree %i deep has these siblings', (position, depth, siblings) => {
    expect(siblingsOf(position, depth)).toEqual(siblings)
  })
})

describe('the reserves’ cover', () => {
  it.each([
    ['fully covered', 100n, 100n, ['1.00', '1.00', '1.0000']],
    ['rounded down, never shown larger', 215_800n, 215_600n, ['2158.00', '2156.00', '1.0009']],
    ['short', 99n, 100n, ['0.99', '1.00', '0.9900']],
    ['nothing held by anyone', 5n, 0n, ['0.05', '0.00', null]],
    ['nothing attested', undefined, 10n, ['0.00', '0.10', '0.0000']],
  ])('%s', (_name, assets, owed, [shownAssets, liabilities, ratio]) => {
    const held = new Map(assets === undefined ? [] : [['EUR', assets]])
    expect(reserveLines(held, [['EUR', owed]], CURRENCIES)).toEqual([
      { currency: 'EUR', assets: shownAssets, liabilities, ratio },
    ])
  })
})

describe('days', () => {
  it.each([
    ['2026-11-29T00:00:00.000Z', '2026-11-29', '2026-11-30T00:00:00.000Z'],
    ['2026-11-29T23:59:59.999Z', '2026-11-29', '2026-11-30T00:00:00.000Z'],
    ['2026-12-31T12:00:00.000Z', '2026-12-31', '2027-01-01T00:00:00.000Z'],
  ])('%s is the UTC day %s; the next starts %s', (now, day, next) => {
    expect(utcDay(new Date(now))).toBe(day)
    expect(nextUtcDay(new Date(now)).toISOString()).toBe(next)
  })
})
