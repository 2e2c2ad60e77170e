import { onlineManager } from '@tanstack/react-query'
import { act, cleanup, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  type Call,
  mockApi,
  problem,
  type Reply,
  type Route,
} from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import type { Language } from '../../i18n/i18n.tsx'
import CounterpartiesPage from './counterparties-page.tsx'
import { aBusiness, aCounterparty, aPage, CP_WALLET } from './test-builders.ts'

const LIST = `GET /counterparties/${CP_WALLET}`
const PAGE = `/wallets/${CP_WALLET}/counterparties`

const people = Array.from({ length: 25 }, (_, i) =>
  aCounterparty({
    counterparty_account_id: `0190b0a4-0000-7000-8000-${String(i).padStart(12, '0')}`,
    name: `Person ${i + 1}`,
  }),
)

/** The server's side of the list: filters and pages over `rows`. */
const listOf =
  (rows = [aCounterparty({ destinations_count: 2 }), aBusiness()]) =>
  (call: Call): Reply => {
    const type = call.query.get('type')
    const search = call.query.get('search')?.toLowerCase()
    const offset = Number(call.query.get('offset') ?? 0)
    const limit = Number(call.query.get('limit') ?? 10)
    const found = rows.filter(
      (row) => (!type || row.type === type) && (!search || row.name.toLowerCase().includes(search)),
    )
    return { body: aPage(found.slice(offset, offset + limit), found.length, offset, limit) }
  }

function renderList(routes: Record<string, Route> = {}, language: Language = 'en') {
  const api = mockApi({ [LIST]: listOf(), ...routes })
  return {
    api,
    ...renderApp(<CounterpartiesPage uuid={CP_WALLET} />, { path: PAGE, language }),
  }
}

const rowNames = () =>
  screen.getAllByRole('listitem').map((item) => item.querySelector('.cp-row-name')?.textContent)

afterEach(() => {
  cleanup()
  act(() => onlineManager.setOnline(true))
  vi.unstubAllGlobals()
})

describe('the counterparty list', () => {
  it('shows each counterparty with its type, country and destinations, linking to it', async () => {
    renderList()
    const ada = await screen.findByRole('link', { name: /Ada Lovelace/ })
    expect(ada).toHaveTextContent('Ada Lovelace')
    expect(ada).toHaveTextContent('Person · United Kingdom')
    expect(ada).toHaveTextContent('2 destinations')
    expect(ada).toHaveAttribute('href', `${PAGE}/${aCounterparty().counterparty_account_id}`)
    expect(screen.getByRole('link', { name: /Acme Trading GmbH/ })).toHaveTextContent(
      'Business · Germany · 0 destinations',
    )
    // Everything is shown: no "2 of 2".
    expect(screen.queryByText('2 of 2')).toBeNull()
  })

  it('asks the server once the typing pauses, not on every key', async () => {
    const { api, user } = renderList()
    await screen.findByRole('link', { name: /Ada Lovelace/ })
    await user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'acme')
    await waitFor(() => expect(rowNames()).toEqual(['Acme Trading GmbH']))
    const searches = api.to(LIST).map((call) => call.query.get('search'))
    expect(searches).toEqual([null, 'acme'])
  })

  it('filters by type', async () => {
    const { api, user } = renderList()
    await screen.findByRole('link', { name: /Ada Lovelace/ })
    await user.click(screen.getByRole('radio', { name: 'Businesses' }))
    await waitFor(() => expect(rowNames()).toEqual(['Acme Trading GmbH']))
    expect(api.to(LIST).at(-1)?.query.get('type')).toBe('BUSINESS')
    await user.click(screen.getByRole('radio', { name: 'People' }))
    await waitFor(() => expect(rowNames()).toEqual(['Ada Lovelace']))
    await user.click(screen.getByRole('radio', { name: 'All' }))
    await waitFor(() => expect(rowNames()).toHaveLength(2))
  })

  it('says when nothing matches and clears the search', async () => {
    const { user } = renderList()
    await screen.findByRole('link', { name: /Ada Lovelace/ })
    await user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'zebra')
    expect(await screen.findByText('No counterparties match your search.')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /Ada Lovelace/ })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Clear search' }))
    expect(screen.getByRole('searchbox', { name: 'Search by name' })).toHaveValue('')
    expect(await screen.findByRole('link', { name: /Ada Lovelace/ })).toBeInTheDocument()
  })

  it('loads more on demand', async () => {
    const { api, user } = renderList({ [LIST]: listOf(people) })
    await screen.findByText('20 of 25')
    await user.click(screen.getByRole('button', { name: 'Show more' }))
    await waitFor(() => expect(rowNames()).toHaveLength(25))
    expect(screen.queryByText(/of 25/)).toBeNull()
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull()
    expect(api.to(LIST).map((call) => call.query.get('offset'))).toEqual(['0', '20'])
  })

  it('invites to add the first one when the book is empty', async () => {
    renderList({ [LIST]: { body: aPage([]) } })
    expect(await screen.findByText(/No counterparties yet/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Add counterparty' })).toHaveAttribute(
      'href',
      `${PAGE}/new`,
    )
    expect(screen.queryByRole('searchbox')).toBeNull()
  })

  it('says what went wrong and tries again', async () => {
    let fail = true
    const { user } = renderList({
      [LIST]: (call) => (fail ? problem(500, 'INTERNAL') : listOf()(call)),
    })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Something went wrong on our side. Please try again in a moment.',
    )
    fail = false
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('link', { name: /Ada Lovelace/ })).toBeInTheDocument()
  })

  it('stays readable offline, with adding disabled and the reason given', async () => {
    renderList()
    await screen.findByRole('link', { name: /Ada Lovelace/ })
    act(() => onlineManager.setOnline(false))
    expect(screen.getByRole('link', { name: /Ada Lovelace/ })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Add counterparty' })).toBeNull()
    const add = screen.getByRole('button', { name: 'Add counterparty' })
    expect(add).toBeDisabled()
    expect(add).toHaveAccessibleDescription('You are offline. This needs a connection.')
  })

  it('offline, says a search not stored on this device waits for the connection', async () => {
    const { user } = renderList()
    await screen.findByRole('link', { name: /Ada Lovelace/ })
    act(() => onlineManager.setOnline(false))
    await user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'acme')
    expect(
      await screen.findByText(/You are offline, and this is not saved on this device yet/),
    ).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /Ada Lovelace/ })).toBeNull()
  })

  it('speaks Russian, with its plural forms', async () => {
    renderList({ [LIST]: listOf([aCounterparty({ destinations_count: 3 })]) }, 'ru')
    const ada = await screen.findByRole('link', { name: /Ada Lovelace/ })
    expect(ada).toHaveTextContent('Частное лицо · Великобритания')
    expect(ada).toHaveTextContent('Реквизитов: 3')
    expect(screen.getByRole('radio', { name: 'Компании' })).toBeInTheDocument()
  })
})
