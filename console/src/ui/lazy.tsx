// A component loaded on first render from its own chunk (dynamic import), with a plain loading line meanwhile.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export function lazy<P extends object, K extends string>(load: () => Promise<Record<K, ComponentType<P>>>, name: K): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  return function Lazy(props: P) {
    const [C, setC] = useState<ComponentType<P> | null>(() => loaded);
    const [error, setError] = useState<string | null>(null);
    useEffect(() => {
      if (C) return;
      load().then(
        (m) => {
          loaded = m[name];
          setC(() => loaded);
        },
        (e: unknown) => setError(`This page could not be loaded (${e instanceof Error ? e.message : String(e)}): reload to try again.`),
      );
    }, []);
    if (error) return <p class="error" role="alert">{error}</p>;
    return C ? <C {...props} /> : <p role="status">Loading…</p>;
  };
}
