// Score recomputation after a change in another module, run without holding up the request that caused it;
// whatever is still running is awaited at shutdown. Modules reach scoring only through ctx.services.scoring.
import type { AppContext } from '../../platform/context.js';
import './contracts.js';

export function backgroundRecompute(ctx: Pick<AppContext, 'services' | 'log' | 'onClose'>, cause: string): (address: string) => void {
  const inFlight = new Set<Promise<unknown>>();
  ctx.onClose(async () => {
    await Promise.allSettled([...inFlight]);
  });
  return (address) => {
    const scoring = ctx.services.scoring;
    if (!scoring) return;
    const p = scoring
      .recompute(address.toLowerCase(), cause)
      .catch((err) => ctx.log.error({ err, address, cause }, 'score recomputation failed'))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
}
