// Small building blocks shared by the pages: a section, a status line that shows the API's words, an action
// button that reports its own progress, and a hook that loads data and exposes reload. The sign-in page uses some
// of them; the widgets only the pages use (paging, table, selects) are in widgets.tsx, out of the first load.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { messageOf } from '../api.ts';

export function Section(props: { id: string; title: string; children: ComponentChildren; intro?: string }) {
  return (
    <section class="panel" aria-labelledby={`${props.id}-h`} id={props.id}>
      <h2 id={`${props.id}-h`}>{props.title}</h2>
      {props.intro && <p class="muted">{props.intro}</p>}
      {props.children}
    </section>
  );
}

/** A result or error line: errors carry the API's `details` text. */
export function Status(props: { error?: string | null; ok?: string | null; testid?: string }) {
  if (props.error) {
    return (
      <p class="error" role="alert" data-testid={props.testid ? `${props.testid}-error` : undefined}>
        {props.error}
      </p>
    );
  }
  if (props.ok) {
    return (
      <p class="ok" role="status" data-testid={props.testid ? `${props.testid}-ok` : undefined}>
        {props.ok}
      </p>
    );
  }
  return null;
}

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/** Loads with `fn` when `deps` change; `error` is the API's details text. */
export function useLoad<T>(fn: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({ data: null, error: null, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    fn().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (e) => live && setState({ data: null, error: messageOf(e), loading: false }),
    );
    return () => void (live = false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** Runs an action, remembering its error (the API's details) or its success message. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [ok, setOk] = useState<string | null>(null);
  const run = useCallback(async (fn: () => Promise<string | void>) => {
    setBusy(true);
    setError(null);
    setOk(null);
    try {
      const msg = await fn();
      if (msg) setOk(msg);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, ok, run, setError };
}

export function Field(props: { label: string; children: ComponentChildren; hint?: string }) {
  return (
    <label class="field">
      <span>{props.label}</span>
      {props.children}
      {props.hint && <small class="muted">{props.hint}</small>}
    </label>
  );
}

export function Copy(props: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      class="secondary"
      onClick={async () => {
        await navigator.clipboard.writeText(props.text).then(
          () => setDone(true),
          () => setDone(false),
        );
      }}
    >
      {done ? 'Copied' : (props.label ?? 'Copy')}
    </button>
  );
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
export const short = (s: string, n = 10) => (s.length > n * 2 ? `${s.slice(0, n)}…${s.slice(-6)}` : s);
