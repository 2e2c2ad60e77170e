import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { CardOtp } from '../../../contract/cards.ts'
import { ApiError, api } from '../../net/api.ts'
import { withStepUp } from '../../net/step-up.ts'
import type { RevealedSecrets } from '../../workers/card-secrets.ts'
import { CardSecretsError } from '../../workers/card-secrets.ts'
import { type CardSecretsClient, openCardSecrets } from '../../workers/card-secrets-client.ts'
import { cardKeys } from './queries.ts'

/** How long revealed secrets stay on screen. */
export const REVEAL_MS = 30_000

/**
 * Something secret shown for a while: it lives in this component's state only
 * (never a query, never a mutation — their results sit in caches that outlive
 * the screen, and queries are persisted), and is dropped after REVEAL_MS, as
 * soon as the app goes to the background, and with the component.
 */
function useShortLived<T>() {
  const [value, setValue] = useState<T>()
  const hide = useCallback(() => setValue(undefined), [])

  useEffect(() => {
    if (value === undefined) return
    const timer = setTimeout(hide, REVEAL_MS)
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') hide()
    }
    document.addEventListener('visibilitychange', onVisibility)
    return () => {
      clearTimeout(timer)
      document.removeEventListener('visibilitychange', onVisibility)
    }
  }, [value, hide])

  /** Shows `next` unless the app went to the background while it was fetched. */
  const show = useCallback((next: T) => {
    if (document.visibilityState !== 'hidden') setValue(next)
  }, [])
  return { value, show, hide }
}

/** The worker's refusal as the ApiError the rest of the app words; other failures as they are. */
function asApiError(error: unknown): unknown {
  if (error instanceof CardSecretsError && error.failure) {
    const { status, problem, retryAfter } = error.failure
    return new ApiError(status, problem, retryAfter)
  }
  return error
}

/** The card's number, expiry and CVV, fetched through the card-secret worker. */
export function useCardReveal(cardId: string) {
  const queryClient = useQueryClient()
  const secrets = useShortLived<RevealedSecrets>()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()
  const client = useRef<CardSecretsClient | undefined>(undefined)

  // Leaving the page ends the worker, and every copy of the secrets it held.
  useEffect(
    () => () => {
      client.current?.close()
      client.current = undefined
    },
    [],
  )

  const reveal = async () => {
    setBusy(true)
    setError(undefined)
    try {
      client.current ??= openCardSecrets()
      const worker = client.current
      // A reveal needs the second look: asked in place, then fetched again once.
      secrets.show(await withStepUp(() => worker.reveal(cardId), asApiError))
      // The reveal was logged: the log on screen shows it.
      void queryClient.invalidateQueries({ queryKey: cardKeys.reveals(cardId) })
    } catch (failure) {
      setError(asApiError(failure))
    } finally {
      setBusy(false)
    }
  }

  return { secrets: secrets.value, reveal, hide: secrets.hide, busy, error }
}

/** A one-time code for the card, under the same rules as the secrets. */
export function useCardOtp(cardId: string) {
  const queryClient = useQueryClient()
  const otp = useShortLived<CardOtp>()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()

  const request = async () => {
    setBusy(true)
    setError(undefined)
    try {
      otp.show(
        await api.v1.get<CardOtp>(`/vcards/cards/${encodeURIComponent(cardId)}/sensitive/otp`),
      )
      void queryClient.invalidateQueries({ queryKey: cardKeys.reveals(cardId) })
    } catch (failure) {
      setError(failure)
    } finally {
      setBusy(false)
    }
  }

  return { otp: otp.value, request, hide: otp.hide, busy, error }
}
