import { paths } from '../../paths.ts'

/**
 * Where sign-in or sign-up leads: the `next` of its query string when it is
 * a path of this app ("/pay/…"), never another origin ("//evil.example",
 * "/\\evil.example", "https://…") — else home.
 */
export function nextAfterSignIn(search: string): string {
  const next = new URLSearchParams(search).get('next')
  return next && /^\/(?![/\\])/.test(next) ? next : paths.home
}
