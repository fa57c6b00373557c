// The console key's plan and usage this month against its quota, usage by day in two charts (queries per day
// against the quota's even daily share; the month's running total against the quota itself), and the upgrade
// (hosted checkout). A test key has no plan: it gets the sandbox banner (developer-page.tsx) and no upgrade.
import { useMemo } from 'preact/hooks';
import type { Schemas } from '@credence/sdk';
import { call, keyed as client } from '../api.ts';
import { color, LineChart, type Series } from '../ui/chart.tsx';
import { Section, Status, useAction, useLoad, when } from '../ui/kit.tsx';
import { ActionButton, Table } from '../ui/widgets.tsx';

type UsageDay = Schemas['UsageDay'];

/** Days in the UTC month of `date` (yyyy-mm-dd). */
const daysInMonth = (date: string) => new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 0)).getUTCDate();

/** The last 30 UTC days: queries per day against the even daily share of the quota (quota / days in that month),
 *  and the month's running total against the quota itself: each line against a reference of its own scale. */
function UsageByDay({ keyId }: { keyId: string | null }) {
  const u = useLoad(() => call(client.GET('/api/v1/billing/usage/daily', { params: { query: { days: 30 } } })), [keyId]);
  const days = u.data?.days ?? [];
  const limit = u.data?.monthlyLimit ?? null;
  const [daily, monthly] = useMemo<[Series[], Series[]]>(() => {
    const t = (d: UsageDay) => Date.parse(`${d.date}T00:00:00Z`) / 1000;
    const perDay: Series[] = [{ label: 'Queries per day', points: days.map((d) => [t(d), d.queries]), stroke: color(0) }];
    const total: Series[] = [{ label: 'This month so far', points: days.map((d) => [t(d), d.monthToDate]), stroke: color(2) }];
    if (limit != null) {
      perDay.push({ label: 'Even daily share of the quota', points: days.map((d) => [t(d), Math.round((limit / daysInMonth(d.date)) * 10) / 10]), stroke: color(1), dash: [6, 4] });
      total.push({ label: 'Monthly quota', points: days.map((d) => [t(d), limit]), stroke: color(1), dash: [6, 4] });
    }
    return [perDay, total];
  }, [u.data]);
  const share = limit != null && days.length ? Math.round((limit / daysInMonth(days[days.length - 1].date)) * 10) / 10 : null;
  return (
    <>
      <h3>Usage by day</h3>
      <Status error={u.error} testid="usage-daily" />
      {u.data && (
        <>
          <LineChart
            title={share != null ? `Queries per day, last 30 days (UTC), against an even share of the quota (${share.toLocaleString()} a day)` : 'Queries per day, last 30 days (UTC); no monthly quota'}
            series={daily}
            testid="usage-chart"
            height={200}
          />
          <LineChart
            title={limit != null ? `Queries this month so far, against the monthly quota of ${limit.toLocaleString()}` : 'Queries this month so far; no monthly quota'}
            series={monthly}
            testid="usage-month-chart"
            height={200}
          />
          <details>
            <summary>Usage by day as a table</summary>
            <Table columns={['Day (UTC)', 'Queries', 'Month so far']} label="Usage by day" testid="usage-table">
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
            </Table>
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
          {d.environment === 'live' && (d.tier === 'Free' || d.tier === 'Starter') && (
            <p class="actions">
              {(['starter', 'growth'] as const)
                .filter((p) => !(d.tier === 'Starter' && p === 'starter'))
                .map((planId) => (
                  <ActionButton
                    key={planId}
                    action={a}
                    run={async () => {
                      const r = await call(client.POST('/api/v1/billing/checkout', { body: { planId, successUrl: `${location.origin}/console/developer`, cancelUrl: `${location.origin}/console/developer` } }));
                      location.assign(r.url);
                    }}
                  >
                    Upgrade to {planId === 'starter' ? 'Starter' : 'Growth'}
                  </ActionButton>
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
