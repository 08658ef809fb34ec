/**
 * A process-local memo that keeps at most `limit` entries: setting a key makes it the newest, and beyond the
 * limit the oldest is forgotten (a Map iterates in insertion order). Readers treat a miss as "read the store".
 */
export interface RecentMap<K, V> {
  get(key: K): V | undefined;
  has(key: K): boolean;
  set(key: K, value: V): void;
  delete(key: K): void;
}

export function recentMap<K, V>(limit: number): RecentMap<K, V> {
  const map = new Map<K, V>();
  return {
    get: (key) => map.get(key),
    has: (key) => map.has(key),
    set(key, value) {
      map.delete(key);
      map.set(key, value);
      if (map.size > limit) map.delete(map.keys().next().value as K);
    },
    delete: (key) => void map.delete(key),
  };
}
