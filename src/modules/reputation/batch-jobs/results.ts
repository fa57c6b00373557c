// The result of a completed bulk scoring job, read back chunk by chunk as JSON lines or CSV.
import type { BatchJobRepo } from './repo.js';

/** `coverage` is the entry's coverage status (complete, partial or none; empty for jobs stored before it existed). */
export const CSV_HEADER = 'address,category,score,confidence,tier,calculatedAt,modelVersion,coverage,conduct,backingUsd';

/** One line per address in request order (the CSV after its header), streamed from the stored chunks. */
export async function* jobResults(jobs: Pick<BatchJobRepo, 'chunks'>, id: string, csv: boolean): AsyncGenerator<string> {
  if (csv) yield `${CSV_HEADER}\n`;
  for (let next = 0; ;) {
    const rows = await jobs.chunks(id, next, 20);
    if (rows.length === 0) return;
    for (const r of rows) {
      yield `${csv ? toCsv(r.lines) : r.lines}\n`;
      next = r.chunk + 1;
    }
  }
}

function toCsv(lines: string): string {
  return lines
    .split('\n')
    .map((l) => {
      const r = JSON.parse(l) as Record<string, string | number | null> & { coverage?: { status?: string } };
      // conduct and backingUsd: empty for results stored before the model measured conduct and backing (and backingUsd for verification categories)
      return [
        r.address,
        r.category,
        r.score,
        r.confidence,
        r.tier,
        r.calculatedAt,
        r.modelVersion,
        r.coverage?.status ?? '',
        r.conduct ?? '',
        r.backingUsd ?? '',
      ].join(',');
    })
    .join('\n');
}
