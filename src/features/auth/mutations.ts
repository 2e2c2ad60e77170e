import { useMutation } from '@tanstack/react-query'
import type { EmailPasswordBody, TokenPair } from '../../../contract/auth.ts'
import { api } from '../../net/api.ts'

/*
 * The answers carry the token pair, but the page never keeps it: the auth
 * proxy (worker or page) stores it in the vault on the way back.
 */

export const useSignIn = () =>
  useMutation({
    mutationFn: (body: EmailPasswordBody) =>
      api.v2.post<TokenPair>('/auth/sign-in/password/email', body),
  })

export const useSignUp = () =>
  useMutation({
    mutationFn: (body: EmailPasswordBody) =>
      api.v2.post<TokenPair>('/auth/sign-up/password/email', body),
  })
