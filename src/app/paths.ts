/** Every route of the app, in one place; links and redirects use these, never literals. */
export const paths = {
  home: '/',
  signIn: '/auth/sign-in',
  signUp: '/auth/sign-up',
  logout: '/auth/logout',
  profile: '/profile',
} as const
