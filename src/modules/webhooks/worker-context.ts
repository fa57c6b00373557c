// The one context every step of the delivery worker works on: its dependencies, its settings, and the state
// of the running worker (deliveries in flight, decrypted secrets, successes waiting to be recorded).
import type { FastifyBaseLogger } from 'fastify';
import type { Cipher } from '../../platform/secrets.js';
import type { AttemptOutcome, ClaimedDelivery, OutboxRepo } from './outbox-repo.js';
import type { Sender } from './sender.js';

export interface DeliveryWorkerOptions {
  repo: OutboxRepo;
  sender: Sender;
  cipher: Cipher;
  log: FastifyBaseLogger;
  /** seconds before retry 1, 2, ...; past its end the delivery is given up */
  retrySchedule: number[];
  /** subscribe to wake-up hints; returns an unsubscribe function */
  onHint(wake: () => void): () => void;
  concurrency?: number;
  pollMs?: number;
  /** how long a claimed row stays invisible to other workers (well above the 10 s send timeout) */
  leaseSeconds?: number;
  random?: () => number;
}

export interface InFlight {
  abort: AbortController;
  done: Promise<void>;
}

export interface PendingSuccess {
  d: ClaimedDelivery;
  o: AttemptOutcome;
  done: () => void;
  fail: (e: unknown) => void;
}

export interface DeliveryContext {
  repo: OutboxRepo;
  sender: Sender;
  cipher: Cipher;
  log: FastifyBaseLogger;
  retrySchedule: number[];
  random?: () => number;
  /** deliveries sent at once */
  concurrency: number;
  /** longest wait between two claims */
  pollMs: number;
  /** seconds a claimed row stays invisible to other workers */
  lease: number;
  running: boolean;
  inflight: Map<string, InFlight>;
  /** decrypted signing secrets by their ciphertext */
  secrets: Map<string, string>;
  /** successes waiting to be recorded together, and the write recording them */
  successes: PendingSuccess[];
  flushing: Promise<void> | null;
  /** claim more now, or as soon as the claim under way ends (set by the worker) */
  wake(): void;
}

export function createDeliveryContext(o: DeliveryWorkerOptions): DeliveryContext {
  return {
    repo: o.repo,
    sender: o.sender,
    cipher: o.cipher,
    log: o.log,
    retrySchedule: o.retrySchedule,
    random: o.random,
    concurrency: o.concurrency ?? 32,
    pollMs: o.pollMs ?? 1000,
    lease: o.leaseSeconds ?? 60,
    running: false,
    inflight: new Map(),
    secrets: new Map(),
    successes: [],
    flushing: null,
    wake: () => {},
  };
}
