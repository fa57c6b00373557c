// SparkLend (an Aave V3 deployment of Spark's own): a reviewed file generated from the protocol's published list
// (each entry names its source).
import { type Builder, lc } from '../builder.js';
import { optionalFile } from '../data.js';

interface SparkFile {
  pool: { address: string; label: string; fromBlock: number; source: string };
  spTokens: { symbol: string; address: string; reserve: string; source: string }[];
}

/** SparkLend's pool and its spTokens from data/registry/spark-<chainId>.json. */
export function addSpark(b: Builder): void {
  const { chainId, add } = b;
  const spark = optionalFile<SparkFile>(`spark-${chainId}.json`);
  if (spark) {
    add({
      address: spark.pool.address,
      protocol: 'spark',
      role: 'lending-pool',
      label: spark.pool.label,
      fromBlock: spark.pool.fromBlock,
      source: spark.pool.source,
    });
    const pool = lc(spark.pool.address);
    for (const t of spark.spTokens)
      add({
        address: t.address,
        protocol: 'spark',
        role: 'a-token',
        label: `SparkLend sp${t.symbol}`,
        fromBlock: spark.pool.fromBlock,
        pool,
        reserve: t.reserve,
        source: t.source,
      });
  }
}
