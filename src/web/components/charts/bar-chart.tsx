import { plural, t } from '@lingui/core/macro';
import { scaleBand, scaleLinear } from 'd3-scale';
import { useEffect, useId, useRef, useState } from 'react';
import { useUiLocale } from '#web/components/use-ui-locale';
import './bar-chart.css';

export interface Bar {
  /** The bar's name in its value's words: a day, a creative. */
  label: string;
  /** The bar's name under the axis, where room is short ("Dec 1"); `label` when absent. */
  short?: string;
  value: number;
}

interface BarChartProps {
  title: string;
  bars: Bar[];
  /** How a value reads, on the y axis and in each bar's words: "1.25 credits". */
  format: (value: number) => string;
  /** What the x and y axes measure, said under the chart. */
  xAxis: string;
  yAxis: string;
  /** Said instead of the chart when there is nothing to draw. */
  empty: string;
}

/** The width drawn before the chart knows its own (and where it cannot measure). */
const DEFAULT_WIDTH = 640;
const HEIGHT = 220;
const MARGIN = { top: 12, right: 12, bottom: 36 };
/** About how wide one character of the axis text is (13 px sans-serif), to leave the y labels room. */
const CHAR_PX = 7.5;
/** Room per x label, so labels never overlap; every bar still says its own in words. */
const X_LABEL_PX = 64;
/** A bar is never wider than this: one day of data is a bar, not a wall. */
const MAX_BAR_PX = 48;

/** The element's width in CSS pixels, followed as it changes: the chart draws at 1:1, text at its size on a phone too. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const w = Math.round(entry?.contentRect.width ?? 0);
      if (w > 0) setWidth(w);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/**
 * A bar chart in SVG (docs/decisions/0319-charts-a-person-can-read.md): a y axis with round ticks and
 * grid lines, x labels, and each bar a focusable element that names its label and value, shown on
 * hover and on keyboard focus, and read by screen readers. d3-scale places the bars and picks the ticks.
 */
export function BarChart({ title, bars, format, xAxis, yAxis, empty }: BarChartProps) {
  useUiLocale();
  const id = useId();
  const [active, setActive] = useState<number | null>(null);
  const { ref, width: WIDTH } = useWidth();
  if (bars.length === 0) {
    return (
      <figure className="bar-chart" aria-labelledby={`${id}-title`}>
        <figcaption id={`${id}-title`} className="bar-chart-title">
          {title}
        </figcaption>
        <p className="bar-chart-empty muted">{empty}</p>
      </figure>
    );
  }

  const max = Math.max(...bars.map((b) => b.value));
  const y = scaleLinear()
    .domain([0, max > 0 ? max : 1])
    .nice(4)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const ticks = y.ticks(4);
  // The y labels' room is the longest label's, so "0.100 credits" is never cut off on the left.
  const left = Math.ceil(Math.max(...ticks.map((t) => format(t).length)) * CHAR_PX) + 12;
  const x = scaleBand<number>()
    .domain(bars.map((_, i) => i))
    .range([left, WIDTH - MARGIN.right])
    .paddingInner(0.2)
    .paddingOuter(0.1);
  const every = Math.ceil(bars.length / Math.max(1, Math.floor((WIDTH - left - MARGIN.right) / X_LABEL_PX)));
  const words = (b: Bar) => `${b.label}: ${format(b.value)}`;
  const barWidth = Math.min(x.bandwidth(), MAX_BAR_PX);
  const barX = (i: number) => x(i)! + (x.bandwidth() - barWidth) / 2;
  const shown = active === null ? null : bars[active]!;
  const total = format(bars.reduce((s, b) => s + b.value, 0));

  return (
    <figure className="bar-chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="bar-chart-title">
        {title}
      </figcaption>
      <p className="bar-chart-value" aria-hidden="true" data-testid="bar-chart-value">
        {shown
          ? words(shown)
          : t`${plural(bars.length, { one: '# bar', other: '# bars' })}, ${total} in all. Point at or tab to a bar for its value.`}
      </p>
      <div ref={ref}>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT} role="group" aria-label={t`${title}: ${yAxis} by ${xAxis}`}>
          <g className="bar-chart-grid" aria-hidden="true">
            {ticks.map((t) => (
              <g key={t} transform={`translate(0, ${y(t)})`}>
                <line x1={left} x2={WIDTH - MARGIN.right} />
                <text x={left - 8} dy="0.32em" textAnchor="end">
                  {format(t)}
                </text>
              </g>
            ))}
          </g>
          <g className="bar-chart-x" aria-hidden="true">
            {bars.map((b, i) =>
              i % every === 0 ? (
                <text key={i} x={x(i)! + x.bandwidth() / 2} y={HEIGHT - MARGIN.bottom + 20} textAnchor="middle">
                  {b.short ?? b.label}
                </text>
              ) : null,
            )}
            <line x1={left} x2={WIDTH - MARGIN.right} y1={HEIGHT - MARGIN.bottom} y2={HEIGHT - MARGIN.bottom} />
          </g>
          {bars.map((b, i) => {
            const top = y(b.value);
            return (
              <rect
                key={i}
                className="bar-chart-bar"
                data-active={active === i || undefined}
                x={barX(i)}
                y={top}
                width={barWidth}
                height={Math.max(0, HEIGHT - MARGIN.bottom - top)}
                tabIndex={0}
                role="img"
                aria-label={words(b)}
                onPointerEnter={() => setActive(i)}
                onPointerLeave={() => setActive(null)}
                onFocus={() => setActive(i)}
                onBlur={() => setActive(null)}
              >
                <title>{words(b)}</title>
              </rect>
            );
          })}
        </svg>
      </div>
      <p className="bar-chart-axes muted">{t`${yAxis} (up) by ${xAxis} (across).`}</p>
    </figure>
  );
}
