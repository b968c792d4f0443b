import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Script } from 'node:vm'
import { buildSync } from 'esbuild'
import { parseTomlTables } from './web-pixel-extension.ts'

/**
 * The app's deployed Shopify Functions, as the platform knows them after `shopify app deploy`:
 * each function extension folder's `shopify.extension.toml` (`type = "function"`, its target, the
 * input query file and the exported function), read from the repository as the storefront reads
 * the theme extension, so the emulator runs the app's own code. `shopifyFunctions` lists them,
 * `validationCreate` activates one, and the store runs an active validation's `run` on cart
 * changes and at checkout (storefront/cart-validation.ts) with the input its query names.
 */

/** The repository's function extensions. */
export const DEFAULT_FUNCTION_EXTENSION_DIRS = [
  resolve(import.meta.dirname, '../../../extensions/teiki-box-rules'),
]

/** The Function APIs by target, as `ShopifyFunction.apiType` names them (API 2025-04). */
const API_TYPES: Record<string, string> = {
  'purchase.validation.run': 'cart_checkout_validation',
}

export type FunctionExtension = {
  /** The platform's function id: a UUID, the same for the app on every shop. */
  id: string
  handle: string
  title: string
  description: string | null
  apiType: string
  apiVersion: string
  target: string
  /** The text of the target's input query (`input = "src/run.graphql"`). */
  inputQuery: string
  /** Runs the exported function on one input, in a context of its own, as the platform's runtime does. */
  run(input: unknown): unknown
}

/** The function's entry, found as Shopify CLI finds it: `src/index.{ts,js}`. */
function entryOf(dir: string): string {
  const entry = ['ts', 'js'].map((ext) => join(dir, 'src', `index.${ext}`)).find(existsSync)
  if (!entry) throw new Error(`${dir} has no src/index.{ts,js}`)
  return entry
}

const bundles = new Map<string, string>()
/** The extension's code bundled as the CLI bundles it (once per folder and process). */
function bundleOf(dir: string): string {
  let text = bundles.get(dir)
  if (text === undefined) {
    text = buildSync({
      entryPoints: [entryOf(dir)],
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'neutral',
      target: 'es2022',
      logLevel: 'silent',
    }).outputFiles[0]!.text
    bundles.set(dir, text)
  }
  return text
}

/**
 * The bundled function, run in a fresh V8 context for every input with nothing but the language:
 * no Node APIs, no network, no state kept from one run to the next (the platform compiles
 * JavaScript to WebAssembly and runs an instance per input, with no I/O but its input and output).
 */
function loadExport(dir: string, exportName: string): (input: unknown) => unknown {
  // The input and the output cross as JSON text, as they do on the platform: no shared objects.
  const script = new Script(
    `var module = { exports: {} }, exports = module.exports;\n${bundleOf(dir)}\n` +
      `if (typeof module.exports[exportName] !== 'function') throw new Error('no export ' + exportName);\n` +
      'output = JSON.stringify(module.exports[exportName](JSON.parse(input)))',
    { filename: join(dir, 'dist/function.js') },
  )
  return (input) => {
    const sandbox = { exportName, input: JSON.stringify(input), output: '' }
    script.runInNewContext(sandbox, { timeout: 1000 })
    return JSON.parse(sandbox.output) as unknown
  }
}

/** Reads one function extension folder (its toml, input query and code). */
export function loadFunctionExtension(dir: string, appKey: string): FunctionExtension {
  const tables = parseTomlTables(readFileSync(join(dir, 'shopify.extension.toml'), 'utf8'))
  const ext = tables.get('extensions')
  const targeting = tables.get('extensions.targeting')
  if (ext?.type !== 'function' || !targeting) throw new Error(`${dir} is not a function extension`)
  const target = String(targeting.target ?? '')
  const apiType = API_TYPES[target]
  if (!apiType) throw new Error(`${dir}: target ${target} is not one the emulator runs`)
  const handle = String(ext.handle ?? ext.name ?? '')
  const digest = createHash('sha256').update(`${appKey}:${handle}`).digest('hex')
  return {
    id: `${digest.slice(0, 8)}-${digest.slice(8, 12)}-4${digest.slice(13, 16)}-a${digest.slice(17, 20)}-${digest.slice(20, 32)}`,
    handle,
    title: String(ext.name ?? handle),
    description: typeof ext.description === 'string' ? ext.description : null,
    apiType,
    apiVersion: String(tables.get('')?.api_version ?? ''),
    target,
    inputQuery: readFileSync(join(dir, String(targeting.input ?? 'src/run.graphql')), 'utf8'),
    run: loadExport(dir, String(targeting.export ?? 'run')),
  }
}
