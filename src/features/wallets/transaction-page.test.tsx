import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aTransaction, aWallet, WALLET_UUID } from '../../../tests/support/builders.ts'
import { mockApi, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import TransactionPage from './transaction-page.tsx'

const W = `/wallets/${WALLET_UUID}`
const tx = aTransaction({ amount: '0.000000000000000001', status: 'pending', confirmations: 3 })

function renderTransaction(language: 'en' | 'ru' = 'en', reply = { body: tx }) {
  mockApi({
    [`GET ${W}`]: { body: aWallet() },
    [`GET ${W}/transactions/${tx.uuid}`]: reply,
  })
  return renderApp(<TransactionPage walletUuid={WALLET_UUID} tx={tx.uuid} />, { language })
}

const field = (term: string) => {
  const dt = screen.getByText(term, { selector: 'dt' })
  return dt.nextElementSibling as HTMLElement
}

afterEach(() => vi.unstubAllGlobals())

describe('transaction detail', () => {
  it('shows every field, labelled and formatted', async () => {
    const { user } = renderTransaction()
    await screen.findByRole('heading', { name: 'Transaction' })
    expect(field('Amount')).toHaveTextContent('0.000000000000000001 ETH')
    expect(field('Status')).toHaveTextContent('Pending')
    expect(field('Type')).toHaveTextContent('Deposit')
    expect(field('Method')).toHaveTextContent('Crypto')
    expect(field('Record type')).toHaveTextContent('Crypto deposit from outside')
    expect(field('Currency')).toHaveTextContent('ETH')
    expect(field('Network')).toHaveTextContent('ethereum')
    expect(field('Address')).toHaveTextContent(tx.address!)
    expect(field('Transaction hash')).toHaveTextContent(tx.tx_hash!)
    expect(field('Confirmations')).toHaveTextContent('3')
    expect(field('Created')).toHaveTextContent('2026')
    expect(field('Updated')).toHaveTextContent('2026')
    expect(field('Transaction ID')).toHaveTextContent(tx.uuid)
    expect(screen.getByRole('link', { name: 'Back to the wallet' })).toHaveAttribute('href', W)

    await user.click(within(field('Address')).getByRole('button', { name: 'Copy address' }))
    expect(await navigator.clipboard.readText()).toBe(tx.address)
    expect(within(field('Address')).getByRole('status')).toHaveTextContent('Copied')
  })

  it('labels the enumerations in Russian', async () => {
    renderTransaction('ru')
    await screen.findByRole('heading', { name: 'Операция' })
    expect(field('Статус')).toHaveTextContent('Ожидает')
    expect(field('Вид записи')).toHaveTextContent('Внешнее криптопополнение')
    expect(field('Способ')).toHaveTextContent('Криптовалюта')
  })

  it('says a transaction that is not there does not exist, with the way back', async () => {
    renderTransaction('en', problem(404, 'NOT_FOUND') as { body: typeof tx })
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This transaction doesn’t exist' }),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to the wallet' })).toHaveAttribute('href', W)
  })

  it('keeps a failure’s own words and a retry when the server fails', async () => {
    renderTransaction('en', problem(500, 'INTERNAL') as { body: typeof tx })
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong on our side.')
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible()
  })
})
