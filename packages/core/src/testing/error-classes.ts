/**
 * Checks, for tests, that every error class a package exports has its own marker: `B.isInstance`
 * must be true exactly for instances of B and its subclasses, also when the instance comes from a
 * second copy of the package (loaded again after `vi.resetModules()`), where `instanceof` is false.
 */
type AnyClass = abstract new (...args: never[]) => unknown
type ErrorClass = AnyClass & { readonly errorName: string; isInstance(value: unknown): boolean }

function isThreadlensErrorClass(value: unknown): value is ErrorClass {
  let current: unknown = value
  while (typeof current === 'function') {
    if (Object.hasOwn(current, 'errorName') && (current as { errorName?: unknown }).errorName === 'ThreadlensError') return true
    current = Object.getPrototypeOf(current)
  }
  return false
}

/** The exported error classes of a module, by export name. */
export function exportedErrorClasses(moduleExports: Record<string, unknown>): Map<string, ErrorClass> {
  const classes = new Map<string, ErrorClass>()
  for (const [name, value] of Object.entries(moduleExports)) if (isThreadlensErrorClass(value)) classes.set(name, value)
  return classes
}

/** The root `ThreadlensError` of a class's chain (each copy of core has its own). */
function rootOf(errorClass: ErrorClass): AnyClass {
  let current: unknown = errorClass
  while (!(Object.hasOwn(current as object, 'errorName') && (current as ErrorClass).errorName === 'ThreadlensError'))
    current = Object.getPrototypeOf(current)
  return current as AnyClass
}

/**
 * An instance whose class is `errorClass`, built by running only the base constructor with
 * `new.target` set to the class: the markers depend on the class chain alone, and this needs no
 * class-specific constructor arguments.
 */
function probeOf(errorClass: ErrorClass): object {
  return Reflect.construct(rootOf(errorClass), ['probe'], errorClass) as object
}

/** Every way the exported error classes break the marker rules; empty when all is well. */
export function errorMarkerProblems(first: Record<string, unknown>, second: Record<string, unknown>): string[] {
  const problems: string[] = []
  const firstClasses = exportedErrorClasses(first)
  const secondClasses = exportedErrorClasses(second)
  for (const [name, errorClass] of firstClasses) {
    if (!Object.hasOwn(errorClass, 'errorName')) problems.push(`${name} declares no static errorName of its own`)
    else if (errorClass.errorName !== name) problems.push(`${name} declares errorName "${errorClass.errorName}"`)
    if (!secondClasses.has(name)) problems.push(`${name} is missing from the second copy`)
  }
  for (const [name, instanceClass] of firstClasses) {
    const probe = probeOf(instanceClass)
    if ((probe as Error).name !== name) problems.push(`new ${name}().name is "${(probe as Error).name}"`)
    for (const [checkName, checkFirst] of firstClasses) {
      const checkSecond = secondClasses.get(checkName)
      if (checkSecond === undefined) continue
      const expected = instanceClass === checkFirst || instanceClass.prototype instanceof checkFirst
      if (checkFirst.isInstance(probe) !== expected) problems.push(`${checkName}.isInstance(new ${name}()) is ${!expected} in the same copy`)
      if (checkSecond.isInstance(probe) !== expected) problems.push(`${checkName}.isInstance(new ${name}()) is ${!expected} across copies`)
      if (probe instanceof checkSecond) problems.push(`the second copy's ${checkName} is the first copy's: not a real second copy`)
    }
  }
  return problems
}
