import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { TenantConfig } from '../../contract/tenants.ts'
import { mockApi } from '../../tests/support/mock-api.ts'
import { renderApp } from '../../tests/support/render-app.tsx'
import HomePage from './home-page.tsx'
import { Layout } from './layout.tsx'
import { Navigation } from './navigation.tsx'
import { applyBranding, brandVariables, DEFAULT_LOGO, textColorOn } from './tenant-branding.tsx'

const tenant = (overrides: Partial<TenantConfig> = {}): TenantConfig => ({
  id: '7d0c2a51-6f0e-4c1e-9a55-0b5b8d7e3c10',
  name: 'Acme Money',
  branding: { primary_color: '#aa0000', accent_color: '#00aa00', logo_url: '/acme-logo.svg' },
  products: { crypto: true, fiat: true, cards: true, exchange: true, p2p: true },
  wallet_types: ['personal'],
  default_display_currency: 'GBP',
  supported_countries: ['GB'],
  support: { email: 'help@acme.example', phone: null, url: null },
  card_secret_public_key: '-----BEGIN PUBLIC KEY-----\n…',
  logout_url: null,
  ...overrides,
})

const root = document.documentElement

afterEach(() => {
  root.removeAttribute('style')
  delete root.dataset.tenantBrand
})

describe('the tenant’s colours', () => {
  it.each([
    ['#ffffff', '#0b1020'],
    ['#ffd700', '#0b1020'],
    ['#3b5bfd', '#ffffff'],
    ['#aa0000', '#ffffff'],
    ['#000000', '#ffffff'],
  ])('a label on %s is written in %s', (background, text) => {
    expect(textColorOn(background)).toBe(text)
  })

  it('become CSS variables on the root, and leave with the undo', () => {
    const undo = applyBranding(root, tenant().branding)

    expect(root.style.getPropertyValue('--brand-primary')).toBe('#aa0000')
    expect(root.style.getPropertyValue('--brand-primary-text')).toBe('#ffffff')
    expect(root.style.getPropertyValue('--brand-accent')).toBe('#00aa00')
    expect(root.dataset.tenantBrand).toBe('')
    undo()
    expect(root.style.getPropertyValue('--brand-primary')).toBe('')
    expect(root.dataset.tenantBrand).toBeUndefined()
  })

  it('a colour that is not #rrggbb changes nothing', () => {
    expect(
      brandVariables({ primary_color: 'red;}', accent_color: '#00aa00', logo_url: null }),
    ).toEqual({})
    applyBranding(root, { primary_color: 'url(x)', accent_color: '#00aa00', logo_url: null })
    expect(root.dataset.tenantBrand).toBeUndefined()
  })
})

describe('the layout for a tenant', () => {
  it('shows the tenant’s name and logo and wears its colours, read once', async () => {
    const api = mockApi({ 'GET /tenants/config': { body: tenant() } })
    const { unmount } = renderApp(
      <Layout signedIn={false} location="/">
        page
      </Layout>,
    )

    const home = await screen.findByRole('link', { name: 'Acme Money' })
    expect(home.querySelector('img')).toHaveAttribute('src', '/acme-logo.svg')
    await waitFor(() => expect(root.style.getPropertyValue('--brand-primary')).toBe('#aa0000'))
    expect(api.to('GET /tenants/config')).toHaveLength(1)
    unmount()
    expect(root.style.getPropertyValue('--brand-primary')).toBe('')
  })

  it('is the app’s own while the configuration cannot be read', async () => {
    const api = mockApi({})
    renderApp(
      <Layout signedIn={false} location="/">
        page
      </Layout>,
    )

    await waitFor(() => expect(api.to('GET /tenants/config')).toHaveLength(1))
    const home = screen.getByRole('link', { name: 'Finplatform' })
    expect(home.querySelector('img')).toHaveAttribute('src', DEFAULT_LOGO)
    expect(root.dataset.tenantBrand).toBeUndefined()
  })

  it('falls back to the app’s icon when the logo does not load', async () => {
    mockApi({ 'GET /tenants/config': { body: tenant() } })
    renderApp(
      <Layout signedIn={false} location="/">
        page
      </Layout>,
    )

    const logo = (await screen.findByRole('link', { name: 'Acme Money' })).querySelector('img')!
    fireEvent.error(logo)
    expect(logo).toHaveAttribute('src', DEFAULT_LOGO)
  })
})

describe('the tenant’s support contacts', () => {
  it('are under every screen, each a link', async () => {
    mockApi({
      'GET /tenants/config': {
        body: tenant({
          support: {
            email: 'help@acme.example',
            phone: '+442079460958',
            url: 'https://acme.example/help',
          },
        }),
      },
    })
    renderApp(
      <Layout signedIn={false} location="/">
        page
      </Layout>,
    )

    const footer = (await screen.findByRole('heading', { name: 'Support' })).closest('footer')
    expect(footer).toHaveTextContent(
      'SupportNeed help? help@acme.example · +442079460958 · Help centre',
    )
    expect(screen.getByRole('link', { name: 'help@acme.example' })).toHaveAttribute(
      'href',
      'mailto:help@acme.example',
    )
    expect(screen.getByRole('link', { name: '+442079460958' })).toHaveAttribute(
      'href',
      'tel:+442079460958',
    )
    expect(screen.getByRole('link', { name: 'Help centre' })).toHaveAttribute(
      'href',
      'https://acme.example/help',
    )
  })

  it('name only what the tenant has, in the person’s language', async () => {
    mockApi({ 'GET /tenants/config': { body: tenant() } })
    renderApp(
      <Layout signedIn={false} location="/">
        page
      </Layout>,
      { language: 'ru' },
    )

    const footer = (await screen.findByRole('heading', { name: 'Поддержка' })).closest('footer')
    expect(footer).toHaveTextContent(/^ПоддержкаНужна помощь\? help@acme\.example$/)
  })

  it('are not there while the configuration is unknown', async () => {
    const api = mockApi({})
    renderApp(
      <Layout signedIn={false} location="/">
        page
      </Layout>,
    )

    await waitFor(() => expect(api.to('GET /tenants/config')).toHaveLength(1))
    expect(screen.queryByRole('heading', { name: 'Support' })).toBeNull()
  })
})

describe('home for a tenant', () => {
  it('offers the Cards tab and Accounts only where the tenant offers cards', async () => {
    mockApi({
      'GET /tenants/config': {
        body: tenant({ products: { ...tenant().products, cards: false } }),
      },
    })
    const { queryClient } = renderApp(<Navigation />)
    await waitFor(() => expect(queryClient.getQueryData(['tenant', 'config'])).toBeDefined())
    const nav = screen.getByRole('navigation', { name: 'Main' })
    await waitFor(() => expect(within(nav).queryByRole('link', { name: 'Cards' })).toBeNull())
    expect(within(nav).queryByRole('link', { name: 'Accounts', hidden: true })).toBeNull()
    expect(within(nav).getByRole('link', { name: 'Move money' })).toBeVisible()
  })

  it('shows them when cards are offered', async () => {
    mockApi({ 'GET /tenants/config': { body: tenant() } })
    renderApp(<Navigation />)

    const nav = screen.getByRole('navigation', { name: 'Main' })
    expect(await within(nav).findByRole('link', { name: 'Cards' })).toBeVisible()
  })

  it('shows only the money actions of products the tenant offers', async () => {
    mockApi({
      'GET /tenants/config': {
        body: tenant({
          products: { crypto: false, fiat: true, cards: false, exchange: false, p2p: false },
        }),
      },
    })
    const { queryClient } = renderApp(<HomePage />)
    await waitFor(() => expect(queryClient.getQueryData(['tenant', 'config'])).toBeDefined())
    const actions = screen.getByRole('navigation', { name: 'Money actions' })
    await waitFor(() =>
      expect(within(actions).queryByRole('link', { name: 'Exchange' })).toBeNull(),
    )
    expect(within(actions).queryByRole('link', { name: 'Top up' })).toBeNull()
    expect(within(actions).getByRole('link', { name: 'Send' })).toBeVisible()
    expect(within(actions).getByRole('link', { name: 'Deposit' })).toBeVisible()
  })
})
