import { describe, expect, it, vi } from 'vitest'
import { notificationFor, openFromTap, pushData, type TapWindow } from './push.ts'

const ORIGIN = 'https://app.example'

const aWindow = (url: string): TapWindow => ({
  url,
  focus: vi.fn(async () => ({})),
  navigate: vi.fn(async () => ({})),
})

describe('the service worker’s push handling', () => {
  it('shows the event’s title and body, tagged by event so a redelivery replaces it', () => {
    const shown = notificationFor(
      {
        title: 'Card payment',
        body: 'Corner Café: 3.50 EUR',
        path: '/cards/c1',
        event_id: 'e1',
        kind: 'card.authorization.approved',
      },
      'Finplatform',
    )
    expect(shown).toMatchObject({
      title: 'Card payment',
      options: { body: 'Corner Café: 3.50 EUR', tag: 'e1', data: { path: '/cards/c1' } },
    })
  })

  it('a message that is not ours shows the app’s name and opens home, never another origin', () => {
    expect(notificationFor(undefined, 'Finplatform')).toMatchObject({
      title: 'Finplatform',
      options: { body: '', data: { path: '/' } },
    })
    for (const path of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      expect(notificationFor({ title: 'x', path }, 'Finplatform').options.data.path).toBe('/')
    }
  })

  it('reads JSON, and nothing from a push without data or with text', () => {
    expect(pushData({ data: { json: () => ({ a: 1 }) } })).toEqual({ a: 1 })
    expect(pushData({ data: null })).toBeUndefined()
    expect(
      pushData({
        data: {
          json: () => {
            throw new SyntaxError('not JSON')
          },
        },
      }),
    ).toBeUndefined()
  })

  it('a tap sends an open window of the app to the screen and focuses it', async () => {
    const open = aWindow(`${ORIGIN}/activity`)
    const openWindow = vi.fn(async () => null)
    await openFromTap('/cards/c1', [open], openWindow, ORIGIN)
    expect(open.navigate).toHaveBeenCalledWith(`${ORIGIN}/cards/c1`)
    expect(open.focus).toHaveBeenCalled()
    expect(openWindow).not.toHaveBeenCalled()
  })

  it('a tap with no window of the app open opens one at the screen', async () => {
    const openWindow = vi.fn(async () => null)
    await openFromTap('/verify', [aWindow('https://elsewhere.example/')], openWindow, ORIGIN)
    expect(openWindow).toHaveBeenCalledWith(`${ORIGIN}/verify`)
  })
})
