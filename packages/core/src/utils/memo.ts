/** Where `memo` keeps values: a `Map` or a `WeakMap`. */
export interface MemoStore<K, V> {
  get(key: K): V | undefined
  set(key: K, value: V): unknown
}

/** `store`'s value for `key`: made by `make` and kept the first time it is asked for. */
export function memo<K, V>(store: MemoStore<K, V>, key: K, make: () => V): V {
  let value = store.get(key)
  if (value === undefined) store.set(key, (value = make()))
  return value
}
