// Request count and latency by method, route and status, kept in plain arrays: recording one request is a Map
// lookup, a bucket search and three additions (prom-client's own observe() hashes and sorts the label object on
// every call, which was the single largest cost of a cached read). The two series are registered with the
// prom-client registry as metric objects that read these arrays when Prometheus scrapes, in prom-client's format.
import type { Registry } from 'prom-client';

interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** observations per bucket (not cumulative); the last slot is above every bound */
  buckets: Float64Array;
}

export interface RequestMetrics {
  record(method: string, route: string, status: number, seconds: number): void;
}

export function createRequestMetrics(
  registry: Registry,
  opts: { counter: string; histogram: string; counterHelp: string; histogramHelp: string; buckets: number[] },
): RequestMetrics {
  const bounds = opts.buckets;
  const series = new Map<string, Series>();

  const counter = {
    name: opts.counter,
    help: opts.counterHelp,
    type: 'counter',
    aggregator: 'sum',
    get: async () => ({
      name: opts.counter,
      help: opts.counterHelp,
      type: 'counter',
      aggregator: 'sum',
      values: [...series.values()].map((s) => ({ labels: { ...s.labels }, value: s.count })),
    }),
    reset: () => series.clear(),
  };
  const histogram = {
    name: opts.histogram,
    help: opts.histogramHelp,
    type: 'histogram',
    aggregator: 'sum',
    get: async () => {
      const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
      for (const s of series.values()) {
        let acc = 0;
        for (let i = 0; i < bounds.length; i++) {
          acc += s.buckets[i];
          values.push({ labels: { ...s.labels, le: bounds[i] }, value: acc, metricName: `${opts.histogram}_bucket` });
        }
        values.push({ labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: `${opts.histogram}_bucket` });
        values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${opts.histogram}_sum` });
        values.push({ labels: { ...s.labels }, value: s.count, metricName: `${opts.histogram}_count` });
      }
      return { name: opts.histogram, help: opts.histogramHelp, type: 'histogram', aggregator: 'sum', values };
    },
    reset: () => series.clear(),
  };
  registry.registerMetric(counter as never);
  registry.registerMetric(histogram as never);

  return {
    record(method, route, status, seconds) {
      const key = `${method} ${route} ${status}`;
      let s = series.get(key);
      if (s === undefined) {
        s = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: new Float64Array(bounds.length + 1) };
        series.set(key, s);
      }
      let i = 0;
      while (i < bounds.length && seconds > bounds[i]) i++;
      s.buckets[i]++;
      s.count++;
      s.sum += seconds;
    },
  };
}
