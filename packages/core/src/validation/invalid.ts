/** Where a check is inside the value being read: a linked trail, turned into a path only when a rule is broken. */
export interface At {
  readonly parent: At | null
  readonly key: string | number
}

/** A broken rule, where it was broken: thrown by the readers and the JSON data walk, caught by whoever ran them. */
export class Invalid {
  constructor(
    readonly at: At | null,
    readonly rule: string,
  ) {}
}

/** The trail as a path from the value's root: `['payload', 'parts', 0]`. */
export function pathOf(at: At | null): (string | number)[] {
  const path: (string | number)[] = []
  for (let step = at; step !== null; step = step.parent) path.push(step.key)
  return path.reverse()
}
