// The console key's plan and usage this month against its quota, and the upgrade (hosted checkout).
import { call, client } from '../api.ts';
import { Section, Status, useAction, useLoad, when } from '../ui/kit.tsx';

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
    </Section>
  );
}
