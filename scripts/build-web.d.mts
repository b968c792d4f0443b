/** Builds the web app when its build is missing or older than its sources; the build's exit status. */
export function buildWebIfStale(): number
