/**
 * What the error reporting of the browser and the server leaves out (spec §8): errors whose
 * message contains one of IGNORED are ignored (browser noise: non-Error rejections, failed
 * fetches), those containing one of DROPPED are dropped before sending (server-side rendering
 * artefacts). Both end the same way: nothing is sent.
 */
export const ERROR_REPORT_IGNORED = ['Non-Error exception captured with keys', 'NetworkError'] as const
export const ERROR_REPORT_DROPPED = ['window is not defined'] as const

/** Tracing sample rate of both SDKs (spec §9). */
export const TRACES_SAMPLE_RATE = 1

export type ReportDecision = 'report' | 'ignore' | 'drop'

/** Decides what the reporter does with an error message. */
export function reportDecision(message: string): ReportDecision {
  if (ERROR_REPORT_IGNORED.some((fragment) => message.includes(fragment))) return 'ignore'
  if (ERROR_REPORT_DROPPED.some((fragment) => message.includes(fragment))) return 'drop'
  return 'report'
}

type EventLike = {
  message?: string | undefined
  exception?:
    | { values?: Array<{ type?: string | undefined; value?: string | undefined }> | undefined }
    | undefined
}

/** Every message an SDK event carries (its message and each exception's type and value). */
export function eventMessages(event: EventLike): string[] {
  const messages = event.message ? [event.message] : []
  for (const value of event.exception?.values ?? []) {
    if (value.value) messages.push(value.value)
    if (value.type && value.value) messages.push(`${value.type}: ${value.value}`)
  }
  return messages
}

/** `beforeSend` of both SDKs: null (not sent) for an event any of whose messages is to be dropped or ignored. */
export function filterReportEvent<E extends EventLike>(event: E): E | null {
  return eventMessages(event).some((m) => reportDecision(m) !== 'report') ? null : event
}
