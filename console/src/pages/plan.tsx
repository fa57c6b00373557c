// The console key's plan and usage this month against its quota, usage by day as a chart against the plan's
// quota, and the upgrade (hosted checkout).
import { useMemo } from 'preact/hooks';
import { call, client } from '../api.ts';
import { color, LineChart, type Series } from '../ui/chart.tsx';
import { Section, Status, useAction, useLoad, when } from '../ui/kit.tsx';

interface UsageDay {
  date: string;
  queries: number;
  monthToDate: number;
}

/** The last 30 UTC days: queries per day, the month's running total, and the monthly quota it runs up against. */
function UsageByDay({ keyId }: { keyId: string | null }) {
  const u = useLoad(() => call(client.GET('/api/v1/billing/usage/daily', { params: { query: { days: 30 } } })), [keyId]);
  const days = (u.data?.days ?? []) as UsageDay[];
  const limit = u.data?.monthlyLimit ?? null;
  const series = useMemo<Series[]>(() => {
    const t = (d: UsageDay) => Date.parse(`${d.date}T00:00:00Z`) / 1000;
    const out: Series[] = [
      { label: 'Queries per day', points: days.map((d) => [t(d), d.queries]), stroke: color(0) },
      { label: 'This month so far', points: days.map((d) => [t(d), d.monthToDate]), stroke: color(2) },
    ];
    if (limit != null) out.push({ label: 'Monthly quota', points: days.map((d) => [t(d), limit]), stroke: color(1), dash: [6, 4] });
    return out;
  }, [u.data]);
  return (
    <>
      <h3>Usage by day</h3>
      <Status error={u.error} testid="usage-daily" />
      {u.data && (
        <>
          <LineChart title={limit != null ? `Queries, last 30 days (UTC), against the monthly quota of ${limit.toLocaleString()}` : 'Queries, last 30 days (UTC); no monthly quota'} series={series} testid="usage-chart" height={220} />
          <details>
            <summary>Usage by day as a table</summary>
            <div class="scroll" tabIndex={0} role="region" aria-label="Usage by day">
              <table data-testid="usage-table">
                <thead>
                  <tr>
                    <th scope="col">Day (UTC)</th>
                    <th scope="col">Queries</th>
                    <th scope="col">Month so far</th>
                  </tr>
                </thead>
                <tbody>
                  {[...days].reverse().map((d) => (
                    <tr key={d.date}>
                      <td>{d.date}</td>
                      <td>{d.queries.toLocaleString()}</td>
                      <td>
                        {d.monthToDate.toLocaleString()}
                        {limit != null ? ` of ${limit.toLocaleString()}` : ''}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </>
  );
}

export function Plan({ keyId }: { keyId: string | null }) {
  const u = useLoad(() => call(client.GET('/api/v1/billing/usage')), [keyId]);
  const a = useAction();
  const d = u.data;
  const share = d && d.monthlyLimit ? Math.min(1, d.queriesThisMonth / d.monthlyLimit) : 0;
  return (
    <Section id="plan" title="Plan and usage" intro="For the key this console uses. Quotas reset at 00:00 UTC on the first day of the month.">
      <Status error={u.error} testid="usage" />
      {d && (
        <>
          <p data-testid="plan-tier">
            Plan <strong>{d.tier}</strong> ({d.environment}) · {d.rateLimit} requests per second
          </p>
          <p>
            {d.queriesThisMonth.toLocaleString()} queries this month{d.monthlyLimit != null ? ` of ${d.monthlyLimit.toLocaleString()}` : ' (unlimited)'}
            {d.remaining != null ? `, ${d.remaining.toLocaleString()} left` : ''}; resets {when(d.resetsAt)}.
          </p>
          {d.monthlyLimit != null && (
            <div class="meter-row">
              <meter min={0} max={d.monthlyLimit} value={d.queriesThisMonth} high={d.monthlyLimit * 0.8} optimum={0} aria-label="Queries used this month against the quota">
                {Math.round(share * 100)}%
              </meter>
              <span>{Math.round(share * 100)}%</span>
            </div>
          )}
          {(d.tier === 'Free' || d.tier === 'Starter') && (
            <p class="actions">
              {(['starter', 'growth'] as const)
                .filter((p) => !(d.tier === 'Starter' && p === 'starter'))
                .map((planId) => (
                  <button
                    key={planId}
                    type="button"
                    disabled={a.busy}
                    onClick={() =>
                      void a.run(async () => {
                        const r = await call(client.POST('/api/v1/billing/checkout', { body: { planId, successUrl: `${location.origin}/console/developer`, cancelUrl: `${location.origin}/console/developer` } }));
                        location.assign(r.url);
                      })
                    }
                  >
                    Upgrade to {planId === 'starter' ? 'Starter' : 'Growth'}
                  </button>
                ))}
            </p>
          )}
        </>
      )}
      <Status error={a.error} testid="checkout" />
      <UsageByDay keyId={keyId} />
    </Section>
  );
}
