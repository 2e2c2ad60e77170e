import { entry, loaders } from 'virtual:en-parts'
import { act, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { en } from './en.ts'
import { EN_PART_NAMES, partOf } from './parts.ts'

/*
 * The English catalogue as the build cuts it (issue 16): the entry holds the
 * shell's words, each part the words of the routes that load it. Fresh
 * modules per test, so no part is in memory until the test loads it.
 */

async function freshI18n() {
  vi.resetModules()
  return import('./i18n.tsx')
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the English catalogue in parts', () => {
  it('the entry and the parts hold every key of en.ts exactly once, each where parts.ts puts it', async () => {
    const seen = new Map<string, unknown>()
    for (const [key, message] of Object.entries(entry)) seen.set(key, message)
    expect(Object.keys(entry).every((key) => partOf(key) === undefined)).toBe(true)
    for (const part of EN_PART_NAMES) {
      const words = (await loaders[part]!()).default
      expect(Object.keys(words).length).toBeGreaterThan(0)
      for (const [key, message] of Object.entries(words)) {
        expect(seen.has(key)).toBe(false)
        expect(partOf(key)).toBe(part)
        seen.set(key, message)
      }
    }
    expect([...seen.keys()].sort()).toEqual(Object.keys(en).sort())
    // Compiled (scripts/compile-messages.ts): words as written, or a function where values go.
    for (const [key, message] of seen) {
      const written = en[key as keyof typeof en]
      if (typeof message === 'string') expect(message).toBe(written)
      else expect(written).toMatch(/\{\w+[,}]/)
    }
  })

  it('the first screen’s shell ships in the entry; a feature’s words do not', () => {
    expect(entry['nav.home']).toBe(en['nav.home'])
    expect(entry['auth.signOut']).toBe(en['auth.signOut'])
    expect(entry['error.boundary']).toBe(en['error.boundary'])
    expect(entry['cards.title']).toBeUndefined()
    expect(entry['auth.signIn']).toBeUndefined()
    expect(partOf('auth.signIn')).toBe('auth')
    expect(partOf('orders.action.label')).toBe('home')
    expect(partOf('orders.title')).toBe('orders')
  })

  it('a route’s code resolves once its words are in memory', async () => {
    const i18n = await freshI18n()
    expect(i18n.translator('en')('nav.home')).toBe(en['nav.home'])
    const code = await i18n.withMessages(Promise.resolve('code'), 'cards')
    expect(code).toBe('code')
    expect(i18n.translator('en')('cards.title')).toBe(en['cards.title'])
    // Every route also brings what errors say.
    expect(i18n.translator('en')('error.network')).toBe(en['error.network'])
  })

  it('a key whose part a route did not load shows nothing, never the key, then its words once they come', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const i18n = await freshI18n()
    function Card() {
      const { t } = i18n.useI18n()
      return <p data-testid="words">{t('cards.title')}</p>
    }
    render(
      <i18n.I18nProvider initial="en">
        <Card />
      </i18n.I18nProvider>,
    )
    expect(screen.getByTestId('words')).toHaveTextContent(/^$/)
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('"cards.title"'))
    await act(async () => {
      await i18n.loadMessages('cards')
    })
    expect(screen.getByTestId('words')).toHaveTextContent(en['cards.title'])
  })
})
