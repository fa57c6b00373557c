// Modules that only some requests need load on first use, not at every start: `lazy(() => import('x'))` imports
// once, and every later call gets the same promise.
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}
