import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { describe, expect, it } from 'vitest'
import type {
  Counterparty,
  Destination,
  DestinationList,
} from '../../../contract/counterparties.ts'
import type { OrderStatus, OrderTarget } from '../../../contract/orders.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { DB } from '../../infra/db/schema.ts'
import { createWallet, describeServer, expectProblem, signUp } from '../../test-support.ts'
import { EUR } from '../ledger/ledger-test-support.ts'
import { acme, BTC, counterpartiesApp, NO_SUCH_ID } from './counterparties-test-support.ts'
import { findDestinationForWallet } from './service.ts'

describeServer('counterparties', () => {
  const { app, call, createDestination, book, userIdOf } = counterpartiesApp()

  describe('destinations', () => {
    /**
     * An order row paying `destination`, straight in the database (the orders
     * area places real ones); `db` may be a transaction, then `userId` is needed.
     */
    async function orderPaying(
      wallet: string,
      destination: Destination,
      status: OrderStatus,
      db: Kysely<DB> | Transaction<DB> = app().db,
      userId?: string,
    ) {
      userId ??= await userIdOf(wallet)
      const target: OrderTarget = {
        kind: 'counterparty',
        wallet_uuid: null,
        counterparty_account_id: destination.counterparty_account_id,
        counterparty_destination_id: destination.counterparty_destination_id,
        destination_type: destination.type,
        fiat_account_id: null,
        chain: null,
        address: null,
        display: destination.display,
      }
      const priced = {
        tenant_id: DEMO_TENANT_ID,
        user_id: userId,
        wallet_id: wallet,
        order_type: 'WITHDRAWAL_FIAT_SEPA' as const,
        from_currency_uuid: EUR,
        to_currency_uuid: EUR,
        amount_from_minor: '1000',
        amount_to_minor: '1000',
        rate: '1',
        fees: '[]',
        total_minor: '1000',
        target: JSON.stringify(target),
      }
      const quoteId = uuidv7()
      const orderId = uuidv7()
      await db
        .insertInto('orders')
        .values({
          id: orderId,
          ...priced,
          status,
          quote_id: quoteId,
          quote_hash: quoteId,
          request_id: `quote:${quoteId}`,
          request_hash: 'test',
          counterparty_destination_id: destination.counterparty_destination_id,
        })
        .execute()
      return (next: OrderStatus) =>
        app().db.updateTable('orders').set({ status: next }).where('id', '=', orderId).execute()
    }

    it('a destination an open order pays cannot be deleted (409) nor re-pointed; once the order ends it can', async () => {
      const { pair, wallet, path } = await book()
      const sepa = await createDestination(pair, path, {
        type: 'SEPA',
        iban: 'DE89370400440532013000',
      })
      const url = `${path}/destinations/${sepa.counterparty_destination_id}`
      const setStatus = await orderPaying(wallet, sepa, 'NEW')

      expectProblem(await call(pair, 'DELETE', url), 409, 'DESTINATION_IN_USE')
      await setStatus('PENDING')
      expectProblem(await call(pair, 'DELETE', url), 409, 'DESTINATION_IN_USE')
      expectProblem(
        await call(pair, 'PATCH', url, { iban: 'FR1420041010050500013M02606' }),
        409,
        'DESTINATION_IN_USE',
      )
      const relabelled = await call(pair, 'PATCH', url, { label: 'Landlord' })
      expect(relabelled.statusCode, relabelled.body).toBe(200)
      expect(relabelled.json<Destination>().iban).toBe('DE89370400440532013000')

      await setStatus('COMPLETE')
      const deleted = await call(pair, 'DELETE', url)
      expect(deleted.statusCode, deleted.body).toBe(204)
      expect(deleted.body).toBe('')

      expectProblem(await call(pair, 'GET', url), 404, 'DESTINATION_NOT_FOUND')
      expectProblem(await call(pair, 'DELETE', url), 404, 'DESTINATION_NOT_FOUND')
      expect((await call(pair, 'GET', `${path}/destinations`)).json<DestinationList>().total).toBe(
        0,
      )
      expect((await call(pair, 'GET', path)).json<Counterparty>().destinations_count).toBe(0)
      // The completed order still names what it paid.
      const row = await app()
        .db.selectFrom('counterparty_destinations')
        .select(['iban', 'deleted_at'])
        .where('id', '=', sepa.counterparty_destination_id)
        .executeTakeFirstOrThrow()
      expect(row).toEqual({ iban: 'DE89370400440532013000', deleted_at: expect.any(Date) })
    })

    it('a DELETE racing an order being placed on the destination waits for it, then answers 409', async () => {
      const { pair, wallet, path } = await book()
      const sepa = await createDestination(pair, path, {
        type: 'SEPA',
        iban: 'DE89370400440532013000',
      })
      const userId = await userIdOf(wallet)
      let commit!: () => void
      const held = new Promise<void>((resolve) => {
        commit = resolve
      })
      let locked!: () => void
      const lockTaken = new Promise<void>((resolve) => {
        locked = resolve
      })
      // What placing an order does: resolve the destination with its lock, then insert the order.
      const placing = app()
        .db.transaction()
        .execute(async (trx) => {
          const found = await findDestinationForWallet(trx, {
            tenantId: DEMO_TENANT_ID,
            userId,
            destinationId: sepa.counterparty_destination_id,
            lock: true,
          })
          expect(found).toBeDefined()
          locked()
          // The order row's own foreign key locks the destination too, but only
          // from its insert on: the share lock covers the time before (pricing, holds).
          await held
          await orderPaying(wallet, sepa, 'NEW', trx, userId)
        })
      await lockTaken
      const deleting = call(
        pair,
        'DELETE',
        `${path}/destinations/${sepa.counterparty_destination_id}`,
      )
      // Long enough for the DELETE to reach the lock (PostgreSQL) or the connection queue (PGlite).
      await new Promise((resolve) => setTimeout(resolve, 200))
      commit()
      await placing
      expectProblem(await deleting, 409, 'DESTINATION_IN_USE')
    })

    it('a destination no order pays is deleted at once', async () => {
      const { pair, path } = await book()
      const crypto = await createDestination(pair, path, {
        type: 'CRYPTO_EXTERNAL',
        chain: 'bitcoin',
        address: BTC,
      })
      const url = `${path}/destinations/${crypto.counterparty_destination_id}`
      expect((await call(pair, 'DELETE', url)).statusCode).toBe(204)
      expectProblem(await call(pair, 'GET', url), 404, 'DESTINATION_NOT_FOUND')
    })

    it('findDestinationForWallet resolves the user’s live destination with its counterparty’s name', async () => {
      const { pair, wallet, path, counterparty } = await book(acme)
      const sepa = await createDestination(pair, path, {
        type: 'SEPA',
        iban: 'DE89370400440532013000',
      })
      const lookup = {
        tenantId: DEMO_TENANT_ID,
        userId: await userIdOf(wallet),
        destinationId: sepa.counterparty_destination_id,
      }

      expect(await findDestinationForWallet(app().db, lookup)).toEqual({
        ...sepa,
        counterparty_name: 'Acme GmbH',
        wallet_id: counterparty.wallet_id,
      })
      expect(
        await findDestinationForWallet(app().db, { ...lookup, walletId: wallet }),
      ).toBeDefined()
      const locked = await app()
        .db.transaction()
        .execute((trx) => findDestinationForWallet(trx, { ...lookup, lock: true }))
      expect(locked?.display).toBe('DE89 … 3000')

      const stranger = await createWallet(app(), (await signUp(app())).access_token)
      const strangerId = await userIdOf(stranger.uuid)
      expect(
        await findDestinationForWallet(app().db, { ...lookup, userId: strangerId }),
      ).toBeUndefined()
      expect(
        await findDestinationForWallet(app().db, { ...lookup, walletId: NO_SUCH_ID }),
      ).toBeUndefined()
      expect(
        await findDestinationForWallet(app().db, { ...lookup, tenantId: NO_SUCH_ID }),
      ).toBeUndefined()

      await call(pair, 'DELETE', `${path}/destinations/${sepa.counterparty_destination_id}`)
      expect(await findDestinationForWallet(app().db, lookup)).toBeUndefined()
    })
  })
})
