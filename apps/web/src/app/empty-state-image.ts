/**
 * A small inline illustration for empty states: Polaris' EmptyState needs an image, and the
 * app must not fetch one from a CDN (embedded admin, offline demo).
 */
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 120 120" fill="none">
<circle cx="60" cy="60" r="56" fill="#F1F1F1"/>
<circle cx="54" cy="54" r="22" stroke="#8A8A8A" stroke-width="6"/>
<path d="M70 70L88 88" stroke="#8A8A8A" stroke-width="6" stroke-linecap="round"/>
</svg>`

export const EMPTY_STATE_IMAGE = `data:image/svg+xml,${encodeURIComponent(svg)}`
