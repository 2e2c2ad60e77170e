import { describe, expect, it, vi } from 'vitest'
import {
  LOCKDOWN_ACTION,
  lockFromTap,
  notificationFor,
  openFromTap,
  pushData,
  type TapWindow,
} from './push.ts'

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

  it('an alert that can mean theft carries the way out as an action, its token in the data', () => {
    const shown = notificationFor(
      {
        title: 'Corner Café',
        body: '−€3.50 · Card payment',
        path: '/cards/c1',
        event_id: 'e1',
        kind: 'card.authorization.approved',
        lockdown: { token: 'T0K3N', button: 'That wasn’t me — lock' },
      },
      'Finplatform',
    )
    expect(shown.options.actions).toEqual([
      { action: LOCKDOWN_ACTION, title: 'That wasn’t me — lock' },
    ])
    expect(shown.options.data).toEqual({ path: '/cards/c1', lockdown: 'T0K3N' })
    const plain = notificationFor({ title: 'x', lockdown: { token: 7 } }, 'Finplatform')
    expect(plain.options.actions).toBeUndefined()
    expect(plain.options.data).toEqual({ path: '/' })
  })

  it('the way out posts the token to the link route and shows the server’s answer', async () => {
    const send = vi.fn(
      async (_: Request) =>
        new Response(JSON.stringify({ locked: true, message: 'Done: your cards are frozen.' }), {
          status: 200,
        }),
    )
    expect(await lockFromTap('T0K3N', send, ORIGIN)).toEqual({
      title: 'Finplatform',
      body: 'Done: your cards are frozen.',
    })
    const request = send.mock.calls[0]![0]
    expect(request.method).toBe('POST')
    expect(request.url).toBe(`${ORIGIN}/api/v2/lockdown/link`)
    expect(await request.json()).toEqual({ token: 'T0K3N' })
  })

  it('a used or expired token, or no network, says so instead', async () => {
    const refused = async () =>
      new Response(
        JSON.stringify({ code: 'LOCKDOWN_LINK_INVALID', detail: 'This link has expired.' }),
        {
          status: 422,
        },
      )
    expect((await lockFromTap('T', refused, ORIGIN)).body).toBe('This link has expired.')
    const offline = async (): Promise<Response> => {
      throw new TypeError('Failed to fetch')
    }
    expect((await lockFromTap('T', offline, ORIGIN)).body).toMatch(/no longer works/)
  })
})
