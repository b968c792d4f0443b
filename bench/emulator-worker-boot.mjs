// A worker thread starts without the parent's TypeScript loader: it registers tsx, then runs
// the emulator's worker (bench/emulator-worker.ts).
import { register } from 'tsx/esm/api'

register()
await import('./emulator-worker.ts')
