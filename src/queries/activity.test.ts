import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { ActivityItem, ActivityPage } from '../../contract/activity.ts'
import { mockApi } from '../../tests/support/mock-api.ts'
import {
  ACTIVITY_PAGE,
  activityFeedQuery,
  activityKeys,
  activityQuery,
  feedFilters,
  recentActivityQuery,
  unsettled,
} from './activity.ts'
import { moneyMoved } from './money-moved.ts'

const item = (id: string, status: ActivityItem['status'] = 'complete') =>
  ({ id, status }) as ActivityItem
const page = (ids: string[], next: string | null): ActivityPage => ({
  data: ids.map((id) => item(id)),
  limit: ACTIVITY_PAGE,
  next_cursor: next,
})

describe('the activity feed’s queries', () => {
  it('pages by the server’s cursor and stops where it says the feed ends', async () => {
    const api = mockApi({
      'GET /activity': (call) => ({
        body: call.query.get('cursor') === 'c1' ? page(['b'], null) : page(['a'], 'c1'),
      }),
    })
    const queryClient = new QueryClient()
    const options = activityFeedQuery({ wallet_uuid: 'w1', q: '' })

    const first = await queryClient.fetchInfiniteQuery(options)
    expect(first.pages.map((p) => p.data.map((i) => i.id))).toEqual([['a']])
    expect(options.getNextPageParam(first.pages[0]!, first.pages, undefined, [undefined])).toBe(
      'c1',
    )
    const calls = api.to('GET /activity')
    expect(Object.fromEntries(calls[0]!.query)).toEqual({
      wallet_uuid: 'w1',
      limit: String(ACTIVITY_PAGE),
    })
    const last = page(['b'], null)
    expect(options.getNextPageParam(last, [last], 'c1', ['c1'])).toBeUndefined()
  })

  it('keys each narrowing apart, and an unset filter is no filter', () => {
    expect(activityFeedQuery({ type: undefined, q: '' }).queryKey).toEqual(
      activityFeedQuery().queryKey,
    )
    expect(activityFeedQuery({ card_id: 'k1' }).queryKey).toEqual([
      'activity',
      'feed',
      { card_id: 'k1' },
    ])
    expect(feedFilters({ currency: 'BTC', q: undefined })).toEqual({ currency: 'BTC' })
    expect(recentActivityQuery({}, 5).queryKey).toEqual(['activity', 'recent', {}, 5])
    expect(activityQuery('x').queryKey).toEqual(activityKeys.detail('x'))
  })

  it('reads one item, and the recent few as one page of that many', async () => {
    const api = mockApi({
      'GET /activity/a%201': { body: { ...item('a 1'), timeline: [] } },
      'GET /activity': { body: page(['n'], 'c') },
    })
    const queryClient = new QueryClient()
    expect((await queryClient.fetchQuery(activityQuery('a 1'))).id).toBe('a 1')
    await queryClient.fetchQuery(recentActivityQuery({ wallet_uuid: 'w' }, 3))
    expect(api.to('GET /activity')[0]!.query.get('limit')).toBe('3')
    expect(api.to('GET /activity')[0]!.query.has('cursor')).toBe(false)
  })

  it('counts pending, confirming and authorised items as under way', () => {
    expect(unsettled(item('a', 'pending'))).toBe(true)
    for (const status of ['complete', 'failed', 'canceled', 'declined', 'reversed', 'refunded']) {
      expect(unsettled(item('a', status as ActivityItem['status'])), status).toBe(false)
    }
  })

  it('is read again when money moves', async () => {
    const queryClient = new QueryClient()
    const keys = [activityKeys.feed({}), activityKeys.detail('x'), activityKeys.recent({}, 5)]
    for (const key of keys) queryClient.setQueryData(key, {})
    await moneyMoved(queryClient)
    for (const key of keys) expect(queryClient.getQueryState(key)?.isInvalidated).toBe(true)
  })
})
