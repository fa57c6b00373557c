// A component loaded on first render from its own chunk (dynamic import), with a plain loading line meanwhile.
import type { ComponentProps, ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazy<M extends { [k in K]: ComponentType<any> }, K extends string, P extends object = ComponentProps<M[K]>>(load: () => Promise<M>, name: K): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  return function Lazy(props: P) {
    const [C, setC] = useState<ComponentType<P> | null>(() => loaded);
    const [error, setError] = useState<string | null>(null);
    useEffect(() => {
      if (C) return;
      load().then(
        (m) => {
          loaded = m[name] as ComponentType<P>;
          setC(() => loaded);
        },
        (e: unknown) => setError(`This page could not be loaded (${e instanceof Error ? e.message : String(e)}): reload to try again.`),
      );
    }, []);
    if (error) return <p class="error" role="alert">{error}</p>;
    return C ? <C {...props} /> : <p role="status">Loading…</p>;
  };
}
