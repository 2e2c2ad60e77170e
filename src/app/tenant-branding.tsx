import { useEffect, useState } from 'react'
import type { TenantConfig } from '../../contract/tenants.ts'
import { useI18n } from '../i18n/i18n.tsx'
import { useTenantConfig } from '../queries/tenant.ts'
import './tenant-branding.css'

type Branding = TenantConfig['branding']

/**
 * The app's own icon: the header's logo when the tenant has none, or its logo
 * fails to load. The vector one (0.7 KB, the favicon too): the 192 px PNG
 * weighed 13 KB of a first visit for a 32 px picture.
 */
export const DEFAULT_LOGO = '/icons/icon.svg'

const DARK_TEXT = '#0b1020'
const LIGHT_TEXT = '#ffffff'

/** WCAG 2 relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/** White or near-black, whichever reads better on `background` (a button's label on the brand colour). */
export function textColorOn(background: string): string {
  return contrast(LIGHT_TEXT, background) >= contrast(DARK_TEXT, background)
    ? LIGHT_TEXT
    : DARK_TEXT
}

const HEX = /^#[0-9a-f]{6}$/i

/** The CSS variables tenant-branding.css builds on; none for a colour that is not #rrggbb. */
export function brandVariables(branding: Branding): Record<string, string> {
  if (!HEX.test(branding.primary_color) || !HEX.test(branding.accent_color)) return {}
  return {
    '--brand-primary': branding.primary_color,
    '--brand-primary-text': textColorOn(branding.primary_color),
    '--brand-accent': branding.accent_color,
  }
}

/**
 * Puts the tenant's colours on `root` (set through the CSSOM, which the
 * Content-Security-Policy allows, unlike a style attribute); answers the undo.
 */
export function applyBranding(root: HTMLElement, branding: Branding): () => void {
  const variables = brandVariables(branding)
  const names = Object.keys(variables)
  if (names.length === 0) return () => undefined
  for (const name of names) root.style.setProperty(name, variables[name] ?? '')
  root.dataset.tenantBrand = ''
  return () => {
    for (const name of names) root.style.removeProperty(name)
    delete root.dataset.tenantBrand
  }
}

/** Wears the tenant's colours for as long as the caller (the layout) is mounted. */
export function useTenantBranding(): void {
  const branding = useTenantConfig()?.branding
  const primary = branding?.primary_color
  const accent = branding?.accent_color
  useEffect(() => {
    if (primary === undefined || accent === undefined) return
    return applyBranding(document.documentElement, {
      primary_color: primary,
      accent_color: accent,
      logo_url: null,
    })
  }, [primary, accent])
}

/** The header's logo and name: the tenant's, else the app's own. */
export function TenantBrand() {
  const { t } = useI18n()
  const config = useTenantConfig()
  const [broken, setBroken] = useState<string>()
  const wanted = config?.branding.logo_url ?? DEFAULT_LOGO
  const logo = wanted === broken ? DEFAULT_LOGO : wanted
  return (
    <>
      <img src={logo} alt="" onError={() => setBroken(logo)} />
      {config?.name ?? t('app.name')}
    </>
  )
}

/** The tenant's support contacts, under every screen once the configuration is known. */
export function TenantSupport() {
  const { t } = useI18n()
  const support = useTenantConfig()?.support
  if (!support) return null
  return (
    <footer className="tenant-support">
      <h2 className="visually-hidden">{t('tenant.support.label')}</h2>
      {t('tenant.support.intro')} <a href={`mailto:${support.email}`}>{support.email}</a>
      {support.phone && (
        <>
          {' · '}
          <a href={`tel:${support.phone}`}>{support.phone}</a>
        </>
      )}
      {support.url && (
        <>
          {' · '}
          <a href={support.url} target="_blank" rel="noopener noreferrer">
            {t('tenant.support.web')}
          </a>
        </>
      )}
    </footer>
  )
}
