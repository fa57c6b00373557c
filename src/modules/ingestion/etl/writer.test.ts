// The import's write queue: writes run one at a time in the order pushed, each push returns once the write before
// it is done, and a failed write stops every later one (the import then resumes from the last committed offset).
import { describe, expect, it } from 'vitest';
import { writeQueue } from './writer.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('writeQueue', () => {
  it('runs writes in order, one at a time, while the next batch is prepared', async () => {
    const q = writeQueue();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const write = (name: string) => async () => {
      running++;
      most = Math.max(most, running);
      log.push(`start ${name}`);
      await new Promise<void>((r) => gates.push(r));
      log.push(`end ${name}`);
      running--;
    };
    await q.push(write('a')); // nothing before it: returns at once, with a running
    log.push('prepared b');
    const pushedB = q.push(write('b'));
    await tick();
    expect(log).toEqual(['start a', 'prepared b']);
    gates.shift()!();
    await pushedB; // returns once a is done, b now running
    expect(log).toEqual(['start a', 'prepared b', 'end a', 'start b']);
    gates.shift()!();
    await q.drain();
    expect(log.at(-1)).toBe('end b');
    expect(most).toBe(1);
  });

  it('a failed write fails the next push and the drain, and nothing after it runs', async () => {
    const q = writeQueue();
    const ran: string[] = [];
    await q.push(async () => {
      ran.push('a');
      throw new Error('connection lost');
    });
    await expect(q.push(async () => void ran.push('b'))).rejects.toThrow('connection lost');
    await expect(q.drain()).rejects.toThrow('connection lost');
    expect(ran).toEqual(['a']);
  });
});
