// The nine scores with tier, confidence, coverage and reason codes in words, each with what would raise it
// (from data/raise.json: the costly actions the model counts), and a chart of each category's history.
import { useMemo } from 'preact/hooks';
import { call, client, CATEGORIES, CATEGORY_NAMES, type Category } from '../api.ts';
import raise from '../data/raise.json';
import { color, LineChart, type Series } from '../ui/chart.tsx';
import { Section, Status, useLoad, when } from '../ui/kit.tsx';

interface Factor {
  code: string;
  description: string;
  impact: number;
}
interface Entry {
  category: Category;
  score: number;
  confidence: number;
  tier: string;
  calculatedAt: string;
  modelVersion: string;
  factors?: Factor[];
  coverage?: { status: string; reason?: string | null; chains: { chainId: number; complete: boolean }[] };
}
interface Advice {
  actions: string[];
  never: string[];
  codes?: Record<string, string>;
}
const ADVICE = raise.categories as Record<Category, Advice>;

const confidenceWords = (c: number) => (c > 0.8 ? 'high' : c >= 0.5 ? 'moderate' : 'low');
const words = (code: string) => code.toLowerCase().replace(/_/g, ' ');

function ScoreCard({ e }: { e: Entry }) {
  const advice = ADVICE[e.category];
  const specific = (e.factors ?? []).map((f) => advice?.codes?.[f.code]).filter((x): x is string => !!x);
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
      {e.factors && e.factors.length > 0 && (
        <ul class="factors" aria-label="Reason codes">
          {e.factors.map((f) => (
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

interface Change {
  category: Category;
  newScore: number;
  recordedAt: string;
  cause: string;
}

function History({ address }: { address: string }) {
  // one read of the change feed for this wallet, oldest first, split into one line per category
  const h = useLoad(async () => {
    const r = await call(client.GET('/api/v1/reputation/changes', { params: { query: { address, limit: 500 } } }));
    return r.changes as unknown as Change[];
  }, [address]);
  const series = useMemo<Series[]>(
    () =>
      CATEGORIES.map((c, i) => ({
        label: CATEGORY_NAMES[c],
        stroke: color(i),
        points: (h.data ?? []).filter((x) => x.category === c).map((x) => [Math.floor(Date.parse(x.recordedAt) / 1000), x.newScore] as [number, number]),
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
          <summary>{h.data.length} changes as a table</summary>
          <div class="scroll" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Category</th>
                <th scope="col">Score</th>
                <th scope="col">Cause</th>
              </tr>
            </thead>
            <tbody>
              {h.data.slice(-50).map((x, i) => (
                <tr key={i}>
                  <td>{when(x.recordedAt)}</td>
                  <td>{CATEGORY_NAMES[x.category]}</td>
                  <td>{x.newScore}</td>
                  <td>{words(x.cause)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
        </details>
      )}
    </Section>
  );
}

export function Scores({ address, onDid }: { address: string; onDid?: (did: string | null) => void }) {
  const s = useLoad(async () => {
    const r = await call(client.GET('/api/v1/reputation/{address}', { params: { path: { address }, query: { explain: true } } }));
    onDid?.(r.did ?? null);
    return r;
  }, [address]);
  return (
    <>
      <Section id="scores" title="My scores">
        <Status error={s.error} testid="scores" />
        {s.loading && !s.data && <p>Loading scores…</p>}
        {s.data && (
          <>
            <p class="muted">
              {s.data.address} · calculated {when((s.data.scores[0] as Entry).calculatedAt)}
            </p>
            <div class="cards scores">
              {(s.data.scores as unknown as Entry[]).map((e) => (
                <ScoreCard key={e.category} e={e} />
              ))}
            </div>
          </>
        )}
      </Section>
      <History address={address} />
    </>
  );
}
