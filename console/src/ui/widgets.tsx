// The console's kit, the widgets its pages share (kept out of the first load: the sign-in page needs none): a list
// the API pages with `nextCursor` and its "load more" button, a table that scrolls when narrow, and selects over
// fixed values, among them the nine categories (the SDK's CATEGORIES, in words).
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { CATEGORIES, type Category } from '@credence/sdk';
import { CATEGORY_NAMES } from '../api.ts';
import { Status, useAction, useLoad, type Loaded } from './kit.tsx';

/** A page of a list the API pages with `nextCursor`: `load()` the first, `load(cursor)` the next. */
interface Page {
  nextCursor: string | null;
}

export interface Paged<P extends Page, T> extends Loaded<P> {
  /** the first page's records, then every page loaded since */
  items: T[];
  /** the next page's cursor; null on the last page */
  cursor: string | null;
  loadMore: () => void;
  moreBusy: boolean;
  moreError: string | null;
}

/** The first page (reloaded when `deps` change, dropping the pages loaded after it), and the next ones on demand. */
export function usePaged<P extends Page, T>(load: (cursor?: string) => Promise<P>, itemsOf: (page: P) => T[], deps: unknown[]): Paged<P, T> {
  const first = useLoad(() => load(), deps);
  const [more, setMore] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const m = useAction();
  useEffect(() => {
    setMore([]);
    setCursor(first.data?.nextCursor ?? null);
  }, [first.data]);
  const loadMore = () =>
    void m.run(async () => {
      if (!cursor) return;
      const r = await load(cursor);
      setMore((x) => [...x, ...itemsOf(r)]);
      setCursor(r.nextCursor);
    });
  return { ...first, items: [...(first.data ? itemsOf(first.data) : []), ...more], cursor, loadMore, moreBusy: m.busy, moreError: m.error };
}

/** A paged list behind a filter form: `form` holds what the fields say; `setFilter` applies a filter (its first page). */
export function useFilteredPages<F, P extends Page, T>(
  initial: F,
  load: (filter: F, cursor?: string) => Promise<P>,
  itemsOf: (page: P) => T[],
  deps: unknown[] = [],
) {
  const [form, setForm] = useState<F>(initial);
  const [filter, setFilter] = useState<F>(form);
  const paged = usePaged((cursor) => load(filter, cursor), itemsOf, [filter, ...deps]);
  return { form, setForm, filter, setFilter, paged };
}

/** A filter's form: its fields (the children) in a grid, then the `submit` button, which calls `onApply`. */
export function FilterForm(props: { label: string; submit: string; onApply: () => void; children: ComponentChildren }) {
  return (
    <form
      class="grid"
      aria-label={props.label}
      onSubmit={(e) => {
        e.preventDefault();
        props.onApply();
      }}
    >
      {props.children}
      <button type="submit">{props.submit}</button>
    </form>
  );
}

/** The "load more" button of a paged list (while there is a next page), and the error of loading it. */
export function LoadMore<P extends Page, T>({ paged, label, testid }: { paged: Paged<P, T>; label: string; testid: string }) {
  return (
    <>
      {paged.cursor && (
        <button type="button" class="secondary" disabled={paged.moreBusy} onClick={paged.loadMore}>
          {label}
        </button>
      )}
      <Status error={paged.moreError} testid={testid} />
    </>
  );
}

/** A column heading; `hidden` ones are read by screen readers only (an actions column). */
export type Column = string | { label: string; hidden: true };

/** A table in a box that scrolls sideways when narrow (keyboard-focusable); `label` names the box as a region.
 *  `responsive` tables turn each row into a card at phone width (cells carry `data-label`). Rows are the children. */
export function Table(props: { columns: Column[]; children: ComponentChildren; label?: string; responsive?: boolean; testid?: string }) {
  return (
    <div class="scroll" tabIndex={0} role={props.label ? 'region' : undefined} aria-label={props.label}>
      <table class={props.responsive ? 'responsive' : undefined} data-testid={props.testid}>
        <thead>
          <tr>
            {props.columns.map((c) =>
              typeof c === 'string' ? (
                <th key={c} scope="col">
                  {c}
                </th>
              ) : (
                <th key={c.label} scope="col">
                  <span class="sr-only">{c.label}</span>
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/** A select over fixed values, each with its words: the value chosen comes back typed. */
export function Select<V extends string>(props: { name: string; value: V; onChange: (value: V) => void; options: readonly (readonly [V, string])[] }) {
  return (
    <select name={props.name} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value as V)}>
      {props.options.map(([v, label]) => (
        <option key={v} value={v}>
          {label}
        </option>
      ))}
    </select>
  );
}

const CATEGORY_OPTIONS = CATEGORIES.map((c) => [c, CATEGORY_NAMES[c]] as const);

/** The nine categories in words, in the API's order; `first` puts another choice before them (e.g. ['', 'Any']). */
export function CategorySelect<V extends string = never>(props: {
  name: string;
  value: Category | NoInfer<V>;
  onChange: (value: Category | NoInfer<V>) => void;
  first?: readonly [V, string];
}) {
  const options: (readonly [Category | V, string])[] = props.first ? [props.first, ...CATEGORY_OPTIONS] : CATEGORY_OPTIONS;
  return <Select name={props.name} value={props.value} onChange={props.onChange} options={options} />;
}

/** A button that runs `run` as `action` (useAction), disabled while it runs; `kind` is its class (none: the main one). */
export function ActionButton(props: {
  action: ReturnType<typeof useAction>;
  run: () => Promise<string | void>;
  kind?: 'secondary' | 'danger';
  children: ComponentChildren;
}) {
  const { action, run } = props;
  return (
    <button type="button" class={props.kind} disabled={action.busy} onClick={() => void action.run(run)}>
      {props.children}
    </button>
  );
}
