import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const domainEntry = fileURLToPath(new URL('../../packages/domain/src/index.ts', import.meta.url))

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: {
    // The domain package is consumed as TypeScript source; aliasing it here keeps the build
    // working even before `npm install` has linked the workspace into node_modules.
    alias: { '@teiki/domain': domainEntry },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: true,
  },
  server: {
    proxy: { '/app-admin': 'http://127.0.0.1:3000' },
  },
})
