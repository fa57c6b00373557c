// The pricing pre-pass of a batch of logs, like poolsForLogs for swap emitters: decode asks for prices while it
// values amounts, so the batch is first decoded with a recorder that notes every (asset, block) a value needs and
// answers "no price"; those are read (cached, bucketed, see reader.ts) and the batch is decoded again with the
// answers. Which amount of which event needs a price is decided in one place, decode.ts, for every source.
import { decodeLog, type DecodeContext, type RawLog } from '../decode.js';
import type { PriceLookup, PriceReader } from './reader.js';

export { createPriceReader, priceReaderFor, type PriceLookup, type PriceReader, type PriceStats } from './reader.js';
export { oracleFor, priceable } from './oracle.js';

type LogLike = Omit<RawLog, 'timestamp'> & { timestamp?: Date | null };

/** The prices the logs' values need at their blocks, read over `reader`; undefined without a reader. */
export async function pricesForLogs(
  reader: PriceReader | undefined,
  logs: readonly LogLike[],
  ctx: Omit<DecodeContext, 'prices' | 'dropped' | 'txFrom'>,
): Promise<PriceLookup | undefined> {
  if (!reader || !logs.length) return undefined;
  const wanted: { token: string; block: number }[] = [];
  const recorder: PriceLookup = (token, block) => void wanted.push({ token, block });
  for (const l of logs) decodeLog({ ...l, timestamp: l.timestamp ?? null }, { ...ctx, prices: recorder });
  return wanted.length ? reader.read(wanted) : undefined;
}
