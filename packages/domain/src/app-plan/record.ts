/** The part of the app's plan record the rule below reads (the platform's subscription). */
export type PlanRecordLike = {
  /** The subscription's numeric id; absent in records stored before the id was kept. */
  id?: string | null
  status: string
}

const HOLDS_PLAN = new Set(['ACTIVE', 'FROZEN'])

/** An ACTIVE or FROZEN subscription is the shop's plan (a frozen one resumes when the shop pays). */
export const holdsPlan = (status: string) => HOLDS_PLAN.has(status)

/** Records without an id (stored before it was kept) match nothing: the sync replaces them. */
const sameSubscription = (a: PlanRecordLike, b: PlanRecordLike) => Boolean(a.id) && a.id === b.id

/**
 * What the app's record of its plan becomes when the platform reports one subscription's state
 * (the re-read behind an `app_subscriptions/update` delivery, the sync, the return from the
 * approval page), whatever order those arrive in:
 * - the subscription held moved (cancelled, frozen, unfrozen): the record follows it;
 * - another one became ACTIVE: it is the plan now (the platform cancels the one it replaces);
 * - another one ended (declined, expired, the replaced plan's cancellation) while a plan is
 *   held (active or frozen): the held plan stays;
 * - with no plan held, the latest outcome becomes the record, so the gate can say why
 *   (「…の料金はストアで承認されませんでした」); a charge still awaiting approval is no plan.
 */
export function nextPlanRecord<T extends PlanRecordLike>(stored: T | null, reported: T): T | null {
  if (stored && sameSubscription(stored, reported)) return reported
  if (reported.status === 'ACTIVE') return reported
  if (stored && holdsPlan(stored.status)) return stored
  if (reported.status === 'PENDING' || reported.status === 'ACCEPTED') return stored
  return reported
}
