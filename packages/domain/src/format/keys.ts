/**
 * The keys of a map of labels, in its order: the values of an enum written once, as the keys of
 * the Japanese labels the screens show for them.
 */
export const keysOf = <K extends string>(labels: Readonly<Record<K, unknown>>): readonly K[] =>
  Object.keys(labels) as K[]
