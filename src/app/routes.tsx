import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react'
import { Redirect, Route, Switch, useLocation } from 'wouter'
import { useI18n, withMessages } from '../i18n/i18n.tsx'
import { hasSession } from '../net/session.ts'
import { paths } from '../paths.ts'
import { Alert, Button, Skeleton } from '../ui/components.tsx'
import { ErrorBoundary } from './error-boundary.tsx'
import { Layout } from './layout.tsx'
import { ScreenShown } from './pwa.tsx'

const SignInPage = lazy(() => withMessages(import('../features/auth/sign-in-page.tsx'), 'auth'))
const PasskeySignIn = lazy(() =>
  withMessages(import('../features/security/passkey-sign-in.tsx'), 'security'),
)
const SignUpPage = lazy(() => withMessages(import('../features/auth/sign-up-page.tsx'), 'auth'))
const LogoutPage = lazy(() => withMessages(import('../features/auth/logout-page.tsx'), 'auth'))
const LockdownLinkPage = lazy(() =>
  withMessages(import('../features/security/lockdown-link-page.tsx'), 'security'),
)
const HomePage = lazy(() => withMessages(import('./home-page.tsx'), 'home'))
const NotFoundPage = lazy(() => withMessages(import('./not-found-page.tsx'), 'home'))
const WalletPage = lazy(() =>
  withMessages(import('./wallet-screen.tsx'), 'home', 'orders', 'counterparties'),
)
const TransactionPage = lazy(() =>
  withMessages(import('../features/wallets/transaction-page.tsx'), 'home', 'orders'),
)
const ActivityPage = lazy(() =>
  withMessages(import('../features/activity/activity-page.tsx'), 'home', 'orders'),
)
const ActivityDetailPage = lazy(() =>
  withMessages(import('../features/activity/activity-detail-page.tsx'), 'home', 'orders'),
)
const ProfilePage = lazy(() =>
  withMessages(import('../features/profile/profile-page.tsx'), 'profile', 'auth', 'kyc', 'home'),
)
const SecurityPage = lazy(() =>
  withMessages(import('../features/security/security-page.tsx'), 'security', 'auth', 'home'),
)
const ProofsPage = lazy(() =>
  withMessages(import('../features/proofs/proofs-page.tsx'), 'profile', 'home'),
)
const CounterpartiesPage = lazy(() =>
  withMessages(
    import('../features/counterparties/counterparties-page.tsx'),
    'counterparties',
    'home',
    'auth',
  ),
)
const NewCounterpartyPage = lazy(() =>
  withMessages(
    import('../features/counterparties/new-counterparty-page.tsx'),
    'counterparties',
    'home',
    'auth',
  ),
)
const CounterpartyPage = lazy(() =>
  withMessages(
    import('../features/counterparties/counterparty-page.tsx'),
    'counterparties',
    'home',
    'auth',
  ),
)
const MoveMoneyPage = lazy(() =>
  withMessages(import('../features/orders/move-money-page.tsx'), 'orders', 'home'),
)
const SendPage = lazy(() =>
  withMessages(import('../features/orders/send-page.tsx'), 'orders', 'home', 'counterparties'),
)
const ExchangePage = lazy(() =>
  withMessages(import('../features/orders/exchange-page.tsx'), 'orders', 'home'),
)
const PaySomeonePage = lazy(() =>
  withMessages(import('../features/orders/pay-someone-page.tsx'), 'orders', 'home'),
)
const RequestMoneyPage = lazy(() =>
  withMessages(import('../features/orders/request-money-page.tsx'), 'orders', 'home'),
)
const RequestsPage = lazy(() =>
  withMessages(import('../features/orders/requests-page.tsx'), 'orders', 'home'),
)
const PaymentRequestPage = lazy(() =>
  withMessages(import('../features/orders/payment-request-page.tsx'), 'orders', 'home'),
)
const SchedulesPage = lazy(() =>
  withMessages(import('../features/orders/schedules-page.tsx'), 'orders', 'home'),
)
const DepositPage = lazy(() =>
  withMessages(import('../features/orders/deposit-page.tsx'), 'orders', 'home'),
)
const TopUpPage = lazy(() =>
  withMessages(import('../features/orders/top-up-page.tsx'), 'orders', 'home'),
)
const OrdersPage = lazy(() =>
  withMessages(import('../features/orders/orders-page.tsx'), 'orders', 'home'),
)
const OrderPage = lazy(() =>
  withMessages(import('../features/orders/order-page.tsx'), 'orders', 'home'),
)
const CardsPage = lazy(() =>
  withMessages(import('../features/cards/cards-page.tsx'), 'cards', 'profile', 'home'),
)
const NewCardPage = lazy(() =>
  withMessages(import('../features/cards/new-card-page.tsx'), 'cards', 'profile', 'home'),
)
const CardPage = lazy(() => withMessages(import('./card-screen.tsx'), 'cards', 'home'))
const VerifyPage = lazy(() =>
  withMessages(import('../features/kyc/verify-page.tsx'), 'kyc', 'home'),
)
const DeveloperPage = lazy(() =>
  withMessages(import('../features/developer/developer-page.tsx'), 'developer', 'home'),
)
const FiatAccountsPage = lazy(() =>
  withMessages(import('../features/cards/fiat-accounts-page.tsx'), 'cards', 'home'),
)
const FiatAccountPage = lazy(() =>
  withMessages(import('../features/cards/fiat-account-page.tsx'), 'cards', 'home'),
)
const StatementPage = lazy(() =>
  withMessages(import('../features/statements/statement-page.tsx'), 'statements', 'home'),
)
const InsightsPage = lazy(() =>
  withMessages(import('../features/insights/insights-page.tsx'), 'insights', 'home'),
)
const WebhooksSection = lazy(() =>
  withMessages(
    import('../features/notifications/webhooks-section.tsx'),
    'notifications',
    'home',
  ).then((module) => ({ default: module.WebhooksSection })),
)
const NotificationsPage = lazy(() =>
  withMessages(import('../features/notifications/notifications-page.tsx'), 'notifications', 'home'),
)
const PushSettings = lazy(() =>
  withMessages(import('../features/notifications/push-settings.tsx'), 'notifications', 'home').then(
    (module) => ({ default: module.PushSettings }),
  ),
)
const SessionsSummary = lazy(() =>
  withMessages(import('../features/security/security-page.tsx'), 'security', 'auth', 'home').then(
    (module) => ({ default: module.SessionsSummary }),
  ),
)

type Params = Record<string, string>

/**
 * Every route of the app and who may see it: `anyone`, `signedOut` (a signed-in
 * person is sent home) or `signedIn` (anyone else is sent to sign in). Order
 * matters where paths overlap: the more specific first. An unknown path is the
 * not-found page, at the URL that was asked for.
 */
export const ROUTES: {
  path: string
  access: 'anyone' | 'signedOut' | 'signedIn'
  page: (params: Params, signedIn: boolean) => ReactNode
}[] = [
  { path: paths.logout, access: 'anyone', page: () => <LogoutPage /> },
  {
    path: paths.paymentRequest,
    access: 'anyone',
    page: (params, signedIn) => <PaymentRequestPage id={params.id!} signedIn={signedIn} />,
  },
  { path: paths.lockdownLink, access: 'anyone', page: () => <LockdownLinkPage /> },
  {
    path: paths.signIn,
    access: 'signedOut',
    page: () => <SignInPage passkey={<PasskeySignIn />} />,
  },
  { path: paths.signUp, access: 'signedOut', page: () => <SignUpPage /> },
  {
    path: paths.profile,
    access: 'signedIn',
    page: () => <ProfilePage notifications={<PushSettings />} sessions={<SessionsSummary />} />,
  },
  { path: paths.notifications, access: 'signedIn', page: () => <NotificationsPage /> },
  { path: paths.security, access: 'signedIn', page: () => <SecurityPage /> },
  { path: paths.proofs, access: 'signedIn', page: () => <ProofsPage /> },
  { path: paths.counterpartiesHome, access: 'signedIn', page: () => <CounterpartiesPage /> },
  {
    path: paths.newCounterparty,
    access: 'signedIn',
    page: (params) => <NewCounterpartyPage uuid={params.uuid!} />,
  },
  {
    path: paths.counterparties,
    access: 'signedIn',
    page: (params) => <CounterpartiesPage uuid={params.uuid} />,
  },
  {
    path: paths.counterparty,
    access: 'signedIn',
    page: (params) => <CounterpartyPage uuid={params.uuid!} id={params.id!} />,
  },
  {
    path: paths.transaction,
    access: 'signedIn',
    page: (params) => <TransactionPage walletUuid={params.uuid!} tx={params.tx!} />,
  },
  { path: paths.wallet, access: 'signedIn', page: (params) => <WalletPage uuid={params.uuid!} /> },
  { path: paths.move, access: 'signedIn', page: () => <MoveMoneyPage /> },
  { path: paths.activity, access: 'signedIn', page: () => <ActivityPage /> },
  {
    path: paths.activityItem,
    access: 'signedIn',
    page: (params) => <ActivityDetailPage id={params.id!} />,
  },
  { path: paths.send, access: 'signedIn', page: () => <SendPage /> },
  { path: paths.exchange, access: 'signedIn', page: () => <ExchangePage /> },
  { path: paths.paySomeone, access: 'signedIn', page: () => <PaySomeonePage /> },
  { path: paths.requestMoney, access: 'signedIn', page: () => <RequestMoneyPage /> },
  { path: paths.requests, access: 'signedIn', page: () => <RequestsPage /> },
  { path: paths.schedules, access: 'signedIn', page: () => <SchedulesPage /> },
  { path: paths.deposit, access: 'signedIn', page: () => <DepositPage /> },
  { path: paths.topUp, access: 'signedIn', page: () => <TopUpPage /> },
  { path: paths.orders, access: 'signedIn', page: () => <OrdersPage /> },
  { path: paths.order, access: 'signedIn', page: (params) => <OrderPage id={params.id!} /> },
  { path: paths.cards, access: 'signedIn', page: () => <CardsPage /> },
  { path: paths.newCard, access: 'signedIn', page: () => <NewCardPage /> },
  { path: paths.card, access: 'signedIn', page: (params) => <CardPage id={params.id!} /> },
  { path: paths.fiatAccounts, access: 'signedIn', page: () => <FiatAccountsPage /> },
  {
    path: paths.fiatAccount,
    access: 'signedIn',
    page: (params) => <FiatAccountPage id={params.id!} />,
  },
  {
    path: paths.developer,
    access: 'signedIn',
    page: () => <DeveloperPage webhooks={<WebhooksSection />} />,
  },
  { path: paths.verify, access: 'signedIn', page: () => <VerifyPage /> },
  { path: paths.statements, access: 'signedIn', page: () => <StatementPage /> },
  { path: paths.insights, access: 'signedIn', page: () => <InsightsPage /> },
  { path: paths.home, access: 'signedIn', page: () => <HomePage /> },
]

/**
 * Whether tokens are stored, read again on every navigation: a sign-in just
 * stored them, or another tab signed out. The answer comes with the location
 * it was read for: until the read for a new location is back, the screen of
 * the last one stays (its answer is true of it), so no route redirects on a
 * stale answer and the frame does not flash between two screens.
 */
function useSession(): { location: string; signedIn: boolean } | undefined {
  const [location] = useLocation()
  const [checked, setChecked] = useState<{ location: string; signedIn: boolean }>()
  useEffect(() => {
    let current = true
    void hasSession().then((signedIn) => {
      if (current) setChecked({ location, signedIn })
    })
    return () => {
      current = false
    }
  }, [location])
  return checked
}

function Screen(props: { children: ReactNode }) {
  const { t } = useI18n()
  return (
    <ErrorBoundary
      fallback={(retry) => (
        <div className="stack">
          <Alert>{t('error.boundary')}</Alert>
          <Button variant="secondary" onClick={retry}>
            {t('error.retry')}
          </Button>
          <ScreenShown />
        </div>
      )}
    >
      <Suspense fallback={<Skeleton label={t('app.loading')} shape="page" />}>
        {props.children}
        <ScreenShown />
      </Suspense>
    </ErrorBoundary>
  )
}

/** The page of a route, or where this person goes instead of it. */
function guarded(access: (typeof ROUTES)[number]['access'], signedIn: boolean, page: ReactNode) {
  if (access === 'signedIn' && !signedIn) return <Redirect to={paths.signIn} replace />
  if (access === 'signedOut' && signedIn) return <Redirect to={paths.home} replace />
  return page
}

export function Routes() {
  const { t } = useI18n()
  const session = useSession()
  if (session === undefined) return <Skeleton label={t('app.loading')} shape="page" />
  const { signedIn } = session

  return (
    // The logout screen is framed as signed out: the tokens are going, and the bell
    // and what else the signed-in frame reads would ask with none.
    <Layout signedIn={signedIn && session.location !== paths.logout} location={session.location}>
      <Screen>
        <Switch location={session.location}>
          {ROUTES.map((route) => (
            <Route key={route.path} path={route.path}>
              {(params: Params) => guarded(route.access, signedIn, route.page(params, signedIn))}
            </Route>
          ))}
          <Route>
            <NotFoundPage />
          </Route>
        </Switch>
      </Screen>
    </Layout>
  )
}
