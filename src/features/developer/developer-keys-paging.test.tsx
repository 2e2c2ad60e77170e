import { onlineManager } from '@tanstack/react-query'
import { act, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { type Call, problem } from '../../../tests/support/mock-api.ts'
import {
  afterDeveloperTest,
  keyId,
  LIST,
  manyKeys,
  renderPage,
  UPDATE,
} from './developer-page-fixture.tsx'
import { KEYS_PAGE } from './queries.ts'
import { anApiKey, aPageOf } from './test-builders.ts'

// A list of keys past one page.

afterEach(afterDeveloperTest)

describe('the developer page', () => {
  /*
   * A list past one page puts hundreds of rows on screen, where each role query
   * (accessible names, visibility of every element) takes a while in happy-dom:
   * these tests find by text and query by role only inside one row, and their
   * waits are generous. Nothing in them is timed.
   */
  const LONG = { timeout: 30_000 }
  const moreButton = (name = 'Show more keys') =>
    screen.findByText(name, { selector: 'button' }, LONG)
  const rowOf = async (name: string) =>
    (await screen.findByText(name, { selector: 'h3' }, LONG)).closest('li') as HTMLElement
  const rowCount = () => document.querySelectorAll('.dev-keys > li').length

  it('reads a long list a page at a time, down to the last key, which can be disabled', {
    timeout: 120_000,
  }, async () => {
    const keys = manyKeys(250)
    const { api, user } = renderPage(keys)

    await screen.findByText('100 of 250 keys', { selector: 'p' }, LONG)
    expect(rowCount()).toBe(100)
    await user.click(await moreButton())
    await screen.findByText('200 of 250 keys', { selector: 'p' }, LONG)
    await user.click(await moreButton())
    const last = await rowOf('Key 250')
    expect(rowCount()).toBe(250)
    expect(screen.queryByText('Show more keys', { selector: 'button' })).toBeNull()
    expect(screen.queryByText(/of 250 keys/, { selector: 'p' })).toBeNull()
    expect(api.to(LIST).map((call) => call.query.get('offset'))).toEqual(['0', '100', '200'])
    expect(api.to(LIST).map((call) => call.query.get('limit'))).toEqual(
      Array(3).fill(String(KEYS_PAGE)),
    )

    await user.click(within(last).getByRole('button', { name: 'Disable Key 250' }))
    const dialog = within(last).getByRole('dialog', { name: 'Disable “Key 250”?' })
    await user.click(within(dialog).getByRole('button', { name: 'Disable key' }))
    // Every page loaded is read again, so the last key shows its new state.
    await waitFor(async () => expect(await rowOf('Key 250')).toHaveTextContent('Disabled'), LONG)
    expect(api.to(UPDATE).map((call) => call.body)).toEqual([{ id: keys[249]!.id, enabled: false }])
  })

  it('shows a key once when a key created elsewhere pushes it onto the next page', {
    timeout: 60_000,
  }, async () => {
    let stored = manyKeys(101)
    const { user } = renderPage([], {
      [LIST]: (call: Call) => ({ body: aPageOf(stored, call.query) }),
    })
    await screen.findByText('100 of 101 keys', { selector: 'p' }, LONG)
    stored = [anApiKey({ id: keyId(0), name: 'Made elsewhere' }), ...stored]
    await user.click(await moreButton())
    await rowOf('Key 101')
    expect(screen.getAllByText('Key 100', { selector: 'h3' })).toHaveLength(1)
    expect(rowCount()).toBe(101)
  })

  it('moves focus to the first key of the page read, though the button goes with the last page', {
    timeout: 60_000,
  }, async () => {
    const { user } = renderPage(manyKeys(101))
    await user.click(await moreButton())
    const first = await screen.findByText('Key 101', { selector: 'h3' }, LONG)
    await waitFor(() => expect(first).toHaveFocus(), LONG)
    expect(screen.queryByText('Show more keys', { selector: 'button' })).toBeNull()
    // Focused from script only: the heading is not a stop on the Tab key.
    expect(first).toHaveAttribute('tabindex', '-1')
  })

  it('says when the next page failed, keeps what is shown, and tries again', {
    timeout: 60_000,
  }, async () => {
    let fail = true
    const { user } = renderPage([], {
      [LIST]: (call: Call) =>
        fail && call.query.get('offset') !== '0'
          ? problem(500, 'INTERNAL')
          : { body: aPageOf(manyKeys(101), call.query) },
    })
    await user.click(await moreButton())
    expect(await screen.findByRole('alert', {}, LONG)).toHaveTextContent(
      'Something went wrong on our side',
    )
    expect(rowCount()).toBe(100)
    fail = false
    await user.click(await moreButton('Try again'))
    await rowOf('Key 101')
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.queryByText(/Show more keys|Try again/, { selector: 'button' })).toBeNull()
  })

  it('says the next page is on its way while it loads', { timeout: 60_000 }, async () => {
    let answer: (() => void) | undefined
    const { user } = renderPage([], {
      [LIST]: async (call: Call) => {
        if (call.query.get('offset') !== '0') await new Promise<void>((done) => (answer = done))
        return { body: aPageOf(manyKeys(101), call.query) }
      },
    })
    await user.click(await moreButton())
    const loading = await moreButton('Loading more keys…')
    expect(loading).toBeDisabled()
    expect(loading).toHaveAttribute('aria-busy', 'true')
    await waitFor(() => expect(answer).toBeDefined(), LONG)
    answer?.()
    await rowOf('Key 101')
  })

  it('offline, shows the keys it has but reads no more', { timeout: 60_000 }, async () => {
    renderPage(manyKeys(101))
    const more = await moreButton()
    act(() => onlineManager.setOnline(false))
    expect(more).toBeDisabled()
    expect(more).toHaveAccessibleDescription('You are offline. This needs a connection.')
  })
})
