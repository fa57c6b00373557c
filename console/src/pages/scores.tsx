// The nine scores with tier, confidence, coverage and reason codes in words, each with what would raise it
// (from data/raise.json: the costly actions the model counts), and a chart of each category's history. Read with
// the wallet's own session. With no chain source (coverage none) nothing on-chain was read: the page says so once,
// with the way to data, and shows no number the model did not measure.
import { useMemo } from 'preact/hooks';
import { CATEGORIES, type Category, type Schemas } from '@credence/sdk';
import { call, own as client, CATEGORY_NAMES, plural } from '../api.ts';
import raise from '../data/raise.json';
import { color, LineChart, type Series } from '../ui/chart.tsx';
import { Section, Status, useLoad, when } from '../ui/kit.tsx';
import { Table } from '../ui/widgets.tsx';

type Factor = Schemas['Factor'];
type Entry = Schemas['ScoreEntry'];
/** What would raise a category's score (data/raise.json: the console's own words, not the API's). */
interface Advice {
  actions: string[];
  never: string[];
  codes?: Record<string, string>;
}
const ADVICE = raise.categories as Record<Category, Advice>;

const confidenceWords = (c: number) => (c > 0.8 ? 'high' : c >= 0.5 ? 'moderate' : 'low');
const words = (code: string) => code.toLowerCase().replace(/_/g, ' ');

const NO_CHAIN_SOURCE = 'NO_CHAIN_SOURCE';
const REVISION = 'DISPUTE_REVISION';
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** A CATEGORY_* factor's score and weight, from its description ("DEFI_LENDING 640 (weight 20%)"), and the points of
 *  settled negative evidence (liquidations, upheld claims) that count in Overall below the category's 0 ("DEFI_LENDING 0
 *  (weight 22%), and 496 points of liquidations or upheld claims below its 0"). */
function partOf(f: Factor): { category: Category; score: number; weight: number; below: number } | null {
  const m = f.description.match(/(\d+)\s*\(weight (\d+)%\)(?:, and (\d+) points of [^,]* below its 0)?/);
  return m
    ? { category: f.code.slice('CATEGORY_'.length) as Category, score: Number(m[1]), weight: Number(m[2]) / 100, below: Number(m[3] ?? 0) }
    : null;
}

/**
 * OVERALL is measured from a baseline: each CATEGORY_* factor is its category's weight times its distance from it
 * (impact = weight x (score - baseline)). The baseline is read back from the factors themselves (so it stays right
 * if the model changes), and only stated when they agree on it. The factors list the largest pulls; what the
 * smaller ones add is shown as one line, so the lines add up to the score.
 */
function OverallBreakdown({ e }: { e: Entry }) {
  const parts = (e.factors ?? []).filter((f) => f.code.startsWith('CATEGORY_'));
  const estimates = parts
    .map((f) => ({ f, p: partOf(f) }))
    .filter((x) => x.p && x.p.weight > 0 && x.f.impact !== 0)
    .map((x) => x.p!.score - x.p!.below - x.f.impact / x.p!.weight);
  if (parts.length === 0 || estimates.length === 0) return null;
  const baseline = Math.round(estimates[0]);
  if (estimates.some((b) => Math.abs(b - baseline) > 5)) return null;
  const others = (e.factors ?? []).filter((f) => !f.code.startsWith('CATEGORY_') && f.code !== NO_CHAIN_SOURCE);
  const listed = [...parts, ...others];
  const rest = e.score - baseline - listed.reduce((sum, f) => sum + f.impact, 0);
  return (
    <div data-testid="overall-breakdown">
      <p>
        Overall is measured from a baseline of <strong>{baseline}</strong>: each category moves it by its weight times its distance from {baseline}, so a
        category above {baseline} raises Overall and one below lowers it.
      </p>
      <ul class="factors" aria-label="How Overall is made">
        <li>
          <span class="flat">{baseline}</span> baseline
        </li>
        {listed.map((f) => (
          <li key={f.code}>
            <span class={f.impact > 0 ? 'up' : f.impact < 0 ? 'down' : 'flat'}>{signed(f.impact)}</span> {f.code.startsWith('CATEGORY_') ? categoryPart(f) : f.description}
          </li>
        ))}
        {rest !== 0 && (
          <li>
            <span class={rest > 0 ? 'up' : 'down'}>{signed(rest)}</span> the other categories together (smaller pulls), and rounding
          </li>
        )}
        <li>
          <strong>= {e.score}</strong>
        </li>
      </ul>
    </div>
  );
}

/** "DEFI_LENDING 640 (weight 20%)" in words: "DeFi lending (credit history): 640, weight 20%". */
function categoryPart(f: Factor): string {
  const p = partOf(f);
  if (!p) return f.description;
  const name = CATEGORY_NAMES[p.category] ?? p.category;
  const why = f.description.match(/points of ([^,]*) below its 0/)?.[1] ?? 'negative evidence';
  const below = p.below > 0 ? `, and ${p.below} points of ${why} that count below its 0` : '';
  return `${name}: ${p.score}${below}, weight ${Math.round(p.weight * 100)}%`;
}

const dollars = (n: number) => `$${n >= 1000 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2)}`;

/** Conduct and backing in words: how the wallet behaves, and what faking that would have cost (what it lost). */
function ConductLine({ e }: { e: Entry }) {
  if (e.conduct === undefined) return null;
  if (e.backingUsd === null || e.backingUsd === undefined) {
    return e.category === 'OVERALL' ? null : <p class="muted conduct">Verification by others, not activity: not held to what it cost.</p>;
  }
  const backing = dollars(e.backingUsd);
  if (e.category === 'OVERALL') {
    return (
      <p class="muted conduct">
        Conduct {e.conduct} across the categories; {backing} lost and not recoverable behind them (interest beyond what the borrowed cash earns
        parked, fees paid to others' liquidity, gas).
      </p>
    );
  }
  return e.conduct > e.score ? (
    <p class="conduct">
      Conduct {e.conduct}: how this wallet behaves. Held to {e.score} because faking it would have cost only {backing}: what this wallet lost and
      cannot get back (interest beyond what the borrowed cash earns parked, fees paid to others' liquidity, gas). Capital merely held counts for
      nothing here.
    </p>
  ) : (
    <p class="muted conduct">
      Conduct {e.conduct}, fully backed: {backing} lost and not recoverable (interest beyond what the cash earns parked, fees to others' liquidity, gas).
    </p>
  );
}

function ScoreCard({ e }: { e: Entry }) {
  const advice = ADVICE[e.category];
  const specific = (e.factors ?? []).map((f) => advice?.codes?.[f.code]).filter((x): x is string => !!x);
  const overall = e.category === 'OVERALL' && (e.factors ?? []).some((f) => f.code.startsWith('CATEGORY_'));
  // the NO_CHAIN_SOURCE paragraph is said once for the page, not in every card
  const factors = (e.factors ?? []).filter((f) => f.code !== NO_CHAIN_SOURCE);
  return (
    <article class="score" data-testid={`score-${e.category}`} aria-labelledby={`score-${e.category}-h`}>
      <h3 id={`score-${e.category}-h`}>{CATEGORY_NAMES[e.category]}</h3>
      <p class="big">
        <span class="value">{e.score}</span> <span class={`tier tier-${e.tier.replace(/\s/g, '-').toLowerCase()}`}>{e.tier}</span>
      </p>
      <p class="muted">
        Confidence {Math.round(e.confidence * 100)}% ({confidenceWords(e.confidence)}) · coverage {e.coverage?.status ?? 'unknown'}
        {e.coverage?.reason ? ` (${words(e.coverage.reason)})` : ''} · model {e.modelVersion}
      </p>
      <ConductLine e={e} />
      {overall && <OverallBreakdown e={e} />}
      {!overall && factors.length > 0 && (
        <ul class="factors" aria-label="Reason codes">
          {factors.map((f) => (
            <li key={f.code}>
              <span class={f.impact > 0 ? 'up' : f.impact < 0 ? 'down' : 'flat'}>{f.impact > 0 ? `+${f.impact}` : f.impact}</span> {f.description}{' '}
              <code class="muted">{f.code}</code>
            </li>
          ))}
        </ul>
      )}
      {advice && (
        <details>
          <summary>What would raise this score</summary>
          <ul>
            {[...specific, ...advice.actions].map((t) => (
              <li key={t}>{t}</li>
            ))}
          </ul>
          {advice.never.length > 0 && (
            <p class="muted">
              Earns nothing: {advice.never.join(' ')}
            </p>
          )}
        </details>
      )}
    </article>
  );
}

function History({ address }: { address: string }) {
  // one read of the change feed for this wallet, oldest first, split into one line per category
  const h = useLoad(async () => {
    const r = await call(client.GET('/api/v1/reputation/changes', { params: { query: { address, limit: 500 } } }));
    return r.changes;
  }, [address]);
  const series = useMemo<Series[]>(
    () =>
      CATEGORIES.map((c, i) => ({
        label: CATEGORY_NAMES[c],
        stroke: color(i),
        // calculatedAt: the time a score describes (a replayed or backfilled history is dated at its own time)
        points: (h.data ?? []).filter((x) => x.category === c).map((x) => [Math.floor(Date.parse(x.calculatedAt) / 1000), x.newScore] as [number, number]),
      })).filter((s) => s.points.length > 0),
    [h.data],
  );
  return (
    <Section id="history" title="History of each category" intro="Every recorded change of each score (toggle a category in the legend).">
      <Status error={h.error} testid="history" />
      {h.data && series.length === 0 && <p>No score changes recorded yet.</p>}
      {series.length > 0 && <LineChart title="Scores over time" series={series} yMax={1000} testid="history-chart" />}
      {h.data && h.data.length > 0 && (
        <details>
          <summary>{plural(h.data.length, 'change')} as a table</summary>
          <Table columns={['When', 'Category', 'Score', 'Cause']}>
            {h.data.slice(-50).map((x, i) => (
              <tr key={i}>
                <td>{when(x.calculatedAt)}</td>
                <td>{CATEGORY_NAMES[x.category]}</td>
                <td>{x.newScore}</td>
                <td>{words(x.cause)}</td>
              </tr>
            ))}
          </Table>
        </details>
      )}
    </Section>
  );
}

/** A category of a wallet nobody read: no number, unless an administrator set one (a dispute's revised score). */
function UnscoredRow({ e }: { e: Entry }) {
  const revision = (e.factors ?? []).find((f) => f.code === REVISION);
  // off-chain evidence (a DID, a KYC, the sanctions list) was looked at: what it found is true
  const found = (e.factors ?? []).filter((f) => f.code !== NO_CHAIN_SOURCE && f.code !== REVISION && !f.code.startsWith('CATEGORY_'));
  return (
    <tr data-testid={`score-${e.category}`}>
      <th scope="row">{CATEGORY_NAMES[e.category]}</th>
      <td>
        {revision ? (
          <>
            <strong class="value">{e.score}</strong> <span class={`tier tier-${e.tier.replace(/\s/g, '-').toLowerCase()}`}>{e.tier}</span>{' '}
            <span class="muted">set by an administrator: {revision.description}</span>
          </>
        ) : (
          <span class="muted">not measured</span>
        )}
        {found.length > 0 && <span class="muted"> · {found.map((f) => f.description).join('; ')}</span>}
      </td>
    </tr>
  );
}

function Unscored({ entries }: { entries: Entry[] }) {
  const how = entries.flatMap((e) => e.factors ?? []).find((f) => f.code === NO_CHAIN_SOURCE)?.description;
  return (
    <div data-testid="unscored">
      <div class="notice" role="note">
        <h3>Not scored yet: no on-chain data was read</h3>
        <p>
          This service has no chain source configured, so nothing this wallet did on chain was read. The model's defaults for a wallet nobody read are
          not measurements and are not shown.
        </p>
        <p data-testid="unscored-how">
          {how
            ? `How to get data: ${how.replace(/^no chain source is configured: on-chain activity was not read, so no activity found here is not a finding\. (To read it, )?/i, '')}.`
            : 'How to get data: start the service with a chain source (CREDENCE_RPC_URL_<chainId>, or CREDENCE_EXPLORER_API_URL with CREDENCE_EXPLORER_API_KEY), or run npm run demo for a local chain with scored wallets.'}
        </p>
      </div>
      <Table columns={['Category', 'Score']} label="Categories" testid="unscored-table">
        {entries.map((e) => (
          <UnscoredRow key={e.category} e={e} />
        ))}
      </Table>
    </div>
  );
}

export function Scores({ address, onDid }: { address: string; onDid?: (did: string | null) => void }) {
  const s = useLoad(async () => {
    const r = await call(client.GET('/api/v1/reputation/{address}', { params: { path: { address }, query: { explain: true } } }));
    onDid?.(r.did ?? null);
    return r;
  }, [address]);
  const entries = s.data?.scores ?? [];
  const unread = entries.length > 0 && entries.every((e) => e.coverage?.status === 'none');
  return (
    <>
      <Section id="scores" title="My scores">
        <Status error={s.error} testid="scores" />
        {s.loading && !s.data && <p>Loading scores…</p>}
        {s.data && (
          <>
            <p class="muted">
              {s.data.address} · calculated {when(entries[0]?.calculatedAt)}
            </p>
            {unread ? (
              <Unscored entries={entries} />
            ) : (
              <div class="cards scores">
                {entries.map((e) => (
                  <ScoreCard key={e.category} e={e} />
                ))}
              </div>
            )}
          </>
        )}
      </Section>
      <History address={address} />
    </>
  );
}
