// Score recomputation after a change in another module, run without holding up the request that caused it;
// whatever is still running is awaited at shutdown. Modules reach scoring only through ctx.services.scoring.
import type { AppContext, ModuleServices } from '../../platform/context.js';

/** Every recomputation still running in this process, whichever module started it. */
const running = new Set<Promise<unknown>>();

/** Resolves once no background recomputation is running (including any started while waiting): for a caller that
 *  changes stored scores behind the service's back, such as a data migration and its test. */
export async function backgroundSettled(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}

export function backgroundRecompute(
  ctx: Pick<AppContext, 'log' | 'onClose'> & { services: Pick<ModuleServices, 'scoring'> },
  cause: string,
): (address: string) => void {
  const inFlight = new Set<Promise<unknown>>();
  ctx.onClose(async () => {
    await Promise.allSettled([...inFlight]);
  });
  return (address) => {
    const p = ctx.services.scoring
      .recompute(address.toLowerCase(), cause)
      .catch((err) => ctx.log.error({ err, address, cause }, 'score recomputation failed'))
      .finally(() => {
        inFlight.delete(p);
        running.delete(p);
      });
    inFlight.add(p);
    running.add(p);
  };
}
