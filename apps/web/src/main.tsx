import '@shopify/polaris/build/esm/styles.css'
import './app/fonts.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app.tsx'
import { initErrorReporting } from './app/report-error.ts'
import { currentSession } from './app/session.ts'
import { prefetchDetailFor } from './features/subscriptions/detail/detail-prefetch.ts'

// Error reporting first (reports made before its SDK has loaded wait for it).
void initErrorReporting()
// Store shop/secret from the landing URL before any navigation drops other parameters.
currentSession()
// A contract's page opened directly: its code and data load alongside the plan check.
prefetchDetailFor(window.location.pathname)

const container = document.getElementById('root')
if (!container) throw new Error('#root is missing from index.html')

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
