import { describe, expect, it } from 'vitest'
import type {
  Counterparty,
  CounterpartyList,
  Destination,
  DestinationList,
} from '../../../contract/counterparties.ts'
import { createWallet, describeServer, expectProblem, signUp } from '../../test-support.ts'
import { BTC, counterpartiesApp, EVM, NO_SUCH_ID, SOLANA } from './counterparties-test-support.ts'

describeServer('counterparties', () => {
  const { app, call, createDestination, book, errorFields } = counterpartiesApp()

  describe('destinations', () => {
    type Valid = [name: string, body: Record<string, unknown>, stored: Record<string, unknown>]
    const valid: Valid[] = [
      [
        'SEPA, a German IBAN typed in groups',
        { type: 'SEPA', iban: 'de89 3704 0044 0532 0130 00', label: 'Rent' },
        { iban: 'DE89370400440532013000', label: 'Rent', display: 'DE89 … 3000' },
      ],
      [
        'SEPA, a British IBAN with its BIC in lower case',
        { type: 'SEPA', iban: 'GB29NWBK60161331926819', bic: 'nwbkgb2l' },
        { iban: 'GB29NWBK60161331926819', bic: 'NWBKGB2L', display: 'GB29 … 6819' },
      ],
      [
        'SEPA, a French IBAN with an 11-character BIC',
        { type: 'SEPA', iban: 'FR1420041010050500013M02606', bic: 'BNPAFRPPXXX' },
        { iban: 'FR1420041010050500013M02606', bic: 'BNPAFRPPXXX', display: 'FR14 … 2606' },
      ],
      [
        'SWIFT, an account number at a German bank',
        { type: 'SWIFT', bic: 'DEUTDEFF', account_number: '0532 0130 00', bank_country: 'DE' },
        { bic: 'DEUTDEFF', account_number: '0532013000', bank_country: 'DE', display: '••3000' },
      ],
      [
        'SWIFT, a Turkish IBAN (outside SEPA)',
        {
          type: 'SWIFT',
          bic: 'NWBKGB2L',
          iban: 'TR330006100519786457841326',
          bank_country: 'GB',
        },
        { iban: 'TR330006100519786457841326', display: 'TR33 … 1326' },
      ],
      [
        'ACH, routing 021000021',
        {
          type: 'ACH',
          routing_number: '021000021',
          account_number: '000123456789',
          account_type: 'checking',
          bank_name: 'JPMorgan Chase',
        },
        { routing_number: '021000021', account_type: 'checking', display: '••6789' },
      ],
      [
        'DOMESTIC_WIRE, routing and account number',
        { type: 'DOMESTIC_WIRE', routing_number: '011 000 015', account_number: '1234567' },
        { routing_number: '011000015', account_number: '1234567', display: '••4567' },
      ],
      [
        'CRYPTO_EXTERNAL, an Ethereum address in lower case',
        { type: 'CRYPTO_EXTERNAL', chain: 'ethereum', address: EVM.toLowerCase() },
        { chain: 'ethereum', address: EVM, display: '0x5290…9EE7' },
      ],
      [
        'CRYPTO_EXTERNAL, a Bitcoin segwit address',
        { type: 'CRYPTO_EXTERNAL', chain: 'bitcoin', address: BTC },
        { address: BTC, display: 'bc1q…f3t4' },
      ],
      [
        'CRYPTO_EXTERNAL, a Solana address',
        { type: 'CRYPTO_EXTERNAL', chain: 'solana', address: SOLANA },
        { address: SOLANA, display: 'HAgk…Kpqk' },
      ],
    ]

    it.each(valid)('accepts %s', async (_name, body, stored) => {
      const { pair, path, counterparty } = await book()
      const created = await createDestination(pair, path, body)
      expect(created).toMatchObject({
        counterparty_destination_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        counterparty_account_id: counterparty.counterparty_account_id,
        type: body.type,
        ...stored,
      })
      const read = await call(
        pair,
        'GET',
        `${path}/destinations/${created.counterparty_destination_id}`,
      )
      expect(read.json()).toEqual(created)
    })

    type Invalid = [name: string, body: Record<string, unknown>, fields: string[]]
    const invalid: Invalid[] = [
      [
        'SEPA, wrong IBAN check digits',
        { type: 'SEPA', iban: 'DE89370400440532013001' },
        ['/body/iban'],
      ],
      [
        'SEPA, a British IBAN with a typo',
        { type: 'SEPA', iban: 'GB29NWBK60161331926818' },
        ['/body/iban'],
      ],
      [
        'SEPA, an IBAN outside SEPA',
        { type: 'SEPA', iban: 'TR330006100519786457841326' },
        ['/body/iban'],
      ],
      [
        'SEPA, a bad BIC and an ACH field',
        { type: 'SEPA', iban: 'DE89370400440532013000', bic: 'DEUT', routing_number: '021000021' },
        ['/body/bic', '/body/routing_number'],
      ],
      ['SEPA, no IBAN', { type: 'SEPA' }, ['/body/iban']],
      [
        'SWIFT, bank country other than the BIC’s',
        { type: 'SWIFT', bic: 'DEUTDEFF', account_number: '123456', bank_country: 'GB' },
        ['/body/bank_country'],
      ],
      [
        'SWIFT, neither account number nor IBAN',
        { type: 'SWIFT', bic: 'NWBKGB2L', bank_country: 'GB' },
        ['/body/account_number'],
      ],
      [
        'SWIFT, an IBAN with wrong check digits',
        {
          type: 'SWIFT',
          bic: 'BNPAFRPPXXX',
          iban: 'FR1420041010050500013M02607',
          bank_country: 'FR',
        },
        ['/body/iban'],
      ],
      [
        'ACH, routing 021000022 (checksum)',
        {
          type: 'ACH',
          routing_number: '021000022',
          account_number: '123456789',
          account_type: 'savings',
        },
        ['/body/routing_number'],
      ],
      [
        'ACH, an IBAN, a short account number and no account type',
        {
          type: 'ACH',
          routing_number: '021000021',
          account_number: '12',
          iban: 'DE89370400440532013000',
        },
        ['/body/iban', '/body/account_number', '/body/account_type'],
      ],
      [
        'DOMESTIC_WIRE, a chain',
        {
          type: 'DOMESTIC_WIRE',
          routing_number: '021000021',
          account_number: '1234567',
          chain: 'tron',
        },
        ['/body/chain'],
      ],
      [
        'CRYPTO_EXTERNAL, a Bitcoin address with a typo',
        {
          type: 'CRYPTO_EXTERNAL',
          chain: 'bitcoin',
          address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5',
        },
        ['/body/address'],
      ],
      [
        'CRYPTO_EXTERNAL, an Ethereum address on Solana',
        { type: 'CRYPTO_EXTERNAL', chain: 'solana', address: EVM },
        ['/body/address'],
      ],
      [
        'CRYPTO_INTERNAL, no wallet but an IBAN',
        { type: 'CRYPTO_INTERNAL', iban: 'DE89370400440532013000' },
        ['/body/iban', '/body/wallet_uuid'],
      ],
      [
        'CRYPTO_INTERNAL, a wallet that does not exist',
        { type: 'CRYPTO_INTERNAL', wallet_uuid: NO_SUCH_ID },
        ['/body/wallet_uuid'],
      ],
    ]

    it.each(invalid)(
      'refuses %s: 422 DESTINATION_INVALID naming every field',
      async (_name, body, fields) => {
        const { pair, path } = await book()
        const problem = expectProblem(
          await call(pair, 'POST', `${path}/destinations`, body),
          422,
          'DESTINATION_INVALID',
        )
        expect(errorFields(problem)).toEqual(fields)
        expect(
          (await call(pair, 'GET', `${path}/destinations`)).json<DestinationList>().total,
        ).toBe(0)
      },
    )

    it('an unknown rail or a malformed field is the schema’s 422', async () => {
      const { pair, path } = await book()
      expectProblem(
        await call(pair, 'POST', `${path}/destinations`, { type: 'PAYPAL', iban: 'x' }),
        422,
        'VALIDATION_FAILED',
      )
      expectProblem(
        await call(pair, 'POST', `${path}/destinations`, {
          type: 'CRYPTO_INTERNAL',
          wallet_uuid: 'x',
        }),
        422,
        'VALIDATION_FAILED',
      )
    })

    it('an internal destination is any wallet of the tenant but the one the counterparty is paid from', async () => {
      const { pair, wallet, path } = await book()
      const ownOther = await createWallet(app(), pair.access_token)
      const someoneElse = await createWallet(app(), (await signUp(app())).access_token)

      for (const target of [ownOther.uuid, someoneElse.uuid]) {
        const created = await createDestination(pair, path, {
          type: 'CRYPTO_INTERNAL',
          wallet_uuid: target,
        })
        expect(created).toMatchObject({ wallet_uuid: target, iban: null, chain: null })
      }
      const self = expectProblem(
        await call(pair, 'POST', `${path}/destinations`, {
          type: 'CRYPTO_INTERNAL',
          wallet_uuid: wallet,
        }),
        422,
        'DESTINATION_INVALID',
      )
      expect(self.errors).toEqual([
        { field: '/body/wallet_uuid', message: 'is the wallet this counterparty is paid from' },
      ])
    })

    it('the list filters by rail and pages oldest first; the counterparty counts them', async () => {
      const { pair, path } = await book()
      const made: Destination[] = []
      for (const body of [
        { type: 'SEPA', iban: 'DE89370400440532013000' },
        { type: 'CRYPTO_EXTERNAL', chain: 'bitcoin', address: BTC },
        { type: 'SEPA', iban: 'GB29NWBK60161331926819' },
      ]) {
        made.push(await createDestination(pair, path, body))
      }
      const list = async (query: string) =>
        (await call(pair, 'GET', `${path}/destinations${query}`)).json<DestinationList>()

      expect((await list('')).data.map((d) => d.counterparty_destination_id)).toEqual(
        made.map((d) => d.counterparty_destination_id),
      )
      const sepa = await list('?type=SEPA&limit=1')
      expect(sepa).toMatchObject({ total: 2, limit: 1, is_last_page: false })
      expect(sepa.data[0]?.iban).toBe('DE89370400440532013000')
      expect((await list('?type=SEPA&limit=1&offset=1')).data[0]?.iban).toBe(
        'GB29NWBK60161331926819',
      )
      expect((await list('?type=ACH')).total).toBe(0)
      expect((await call(pair, 'GET', path)).json<Counterparty>().destinations_count).toBe(3)
      const [listed] = (
        await call(pair, 'GET', path.slice(0, path.lastIndexOf('/')))
      ).json<CounterpartyList>().data
      expect(listed?.destinations_count).toBe(3)
    })

    it('PATCH re-checks the merged destination and cannot change the rail', async () => {
      const { pair, path } = await book()
      const swift = await createDestination(pair, path, {
        type: 'SWIFT',
        bic: 'DEUTDEFF',
        account_number: '0532013000',
        bank_country: 'DE',
      })
      const url = `${path}/destinations/${swift.counterparty_destination_id}`

      const moved = expectProblem(
        await call(pair, 'PATCH', url, { bic: 'NWBKGB2L' }),
        422,
        'DESTINATION_INVALID',
      )
      expect(errorFields(moved)).toEqual(['/body/bank_country'])
      const both = await call(pair, 'PATCH', url, {
        bic: 'nwbkgb2l',
        bank_country: 'GB',
        label: 'UK',
      })
      expect(both.statusCode, both.body).toBe(200)
      expect(both.json<Destination>()).toMatchObject({
        bic: 'NWBKGB2L',
        bank_country: 'GB',
        label: 'UK',
        account_number: '0532013000',
      })
      expectProblem(await call(pair, 'PATCH', url, { type: 'SEPA' }), 422, 'VALIDATION_FAILED')
      const foreign = expectProblem(
        await call(pair, 'PATCH', url, { chain: 'bitcoin' }),
        422,
        'DESTINATION_INVALID',
      )
      expect(errorFields(foreign)).toEqual(['/body/chain'])
      expect((await call(pair, 'PATCH', url, { label: null })).json<Destination>().label).toBeNull()
      expectProblem(
        await call(pair, 'PATCH', `${path}/destinations/${NO_SUCH_ID}`, { label: 'x' }),
        404,
        'DESTINATION_NOT_FOUND',
      )
    })
  })
})
