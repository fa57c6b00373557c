// Line charts with uPlot (bundled, with its stylesheet): time on x, one series per line.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Series {
  label: string;
  /** points as [unix seconds, value]; missing points are gaps */
  points: [number, number][];
  stroke: string;
  dash?: number[];
}

const PALETTE = ['#1d4ed8', '#b91c1c', '#047857', '#7c3aed', '#b45309', '#0e7490', '#be185d', '#4d7c0f', '#374151'];
export const color = (i: number) => PALETTE[i % PALETTE.length];

/** Aligns the series on the union of their x values (uPlot's data layout), carrying each value forward. */
function align(series: Series[]): uPlot.AlignedData {
  const xs = [...new Set(series.flatMap((s) => s.points.map((p) => p[0])))].sort((a, b) => a - b);
  const cols = series.map((s) => {
    const m = new Map(s.points);
    let last: number | null = null;
    return xs.map((x) => {
      if (m.has(x)) last = m.get(x)!;
      return s.points.length && x >= s.points[0][0] ? last : null;
    });
  });
  return [xs, ...cols] as uPlot.AlignedData;
}

export function LineChart(props: { title: string; series: Series[]; yMax?: number; testid?: string; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = Math.max(280, Math.min(el.clientWidth || 600, 900));
    const plot = new uPlot(
      {
        title: props.title,
        width,
        height: props.height ?? 260,
        scales: {
          // a history of a few moments still gets a readable time axis (at least an hour wide)
          x: { time: true, range: (_u, min, max) => (max - min < 3600 ? [min - 1800, max + 1800] : [min, max]) },
          y: props.yMax ? { range: [0, props.yMax] } : {},
        },
        series: [{}, ...props.series.map((s) => ({ label: s.label, stroke: s.stroke, width: 2, dash: s.dash, spanGaps: false, points: { show: true, size: 7 } }))],
        // the y axis as wide as its longest label (a quota of 10,000 needs more room than a score of 1000)
        axes: [{}, { size: (_u, values) => Math.max(50, ...(values ?? []).map((v) => String(v).length * 8 + 20)) }],
      },
      align(props.series),
      el,
    );
    const onResize = () => plot.setSize({ width: Math.max(280, Math.min(el.clientWidth, 900)), height: props.height ?? 260 });
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      plot.destroy();
    };
  }, [props.series, props.title, props.yMax]);
  return <div class="chart" ref={box} role="img" aria-label={props.title} data-testid={props.testid} />;
}
